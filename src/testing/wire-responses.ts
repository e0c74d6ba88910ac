import type { IncomingHttpHeaders } from 'node:http';
import type { WireAnswer } from './faults.js';
import { isGiven, roughTokens, scriptedCall, type ToolResult, textOf } from './scripted-call.js';
import { type AnswerContext, namedEvent, parseOutput, type WireBody, type WireDialect } from './wire.js';

// OpenAI's Responses API (`POST /v1/responses`), what `openai/<id>` speaks: the prompt is a
// list of input items, the answer a list of output items (a message, function calls).

interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  name?: string;
  output?: unknown;
}

/** Items the model wrote: its messages, function calls, and references to stored ones. */
const byModel = (item: InputItem) =>
  item.role === 'assistant' ||
  item.type === 'function_call' ||
  item.type === 'item_reference' ||
  item.type === 'reasoning';

function read(body: WireBody, headers: IncomingHttpHeaders, index: number) {
  const items: InputItem[] = Array.isArray(body.input)
    ? body.input
    : [{ role: 'user', content: String(body.input ?? '') }];
  const system = [
    ...(typeof body.instructions === 'string' ? [body.instructions] : []),
    ...items
      .filter((item) => item.role === 'system' || item.role === 'developer')
      .map((item) => textOf(item.content)),
  ].join('\n');
  const lastUser = items.findLastIndex((item) => item.role === 'user' && !isGiven(textOf(item.content)));
  const after = items.slice(lastUser + 1);
  const given = after.flatMap((item) => (item.role === 'user' ? [textOf(item.content)] : []));
  // A step is one answer of the model: a run of its items, ended by the tools' outputs.
  const step = after.filter((item, position) => byModel(item) && !byModel(after[position - 1] ?? {})).length;
  const names = new Map<string, string>();
  for (const item of after) if (item.type === 'function_call') names.set(item.call_id ?? '', item.name ?? '');
  const lastByModel = after.findLastIndex(byModel);
  const toolResults: ToolResult[] = after
    .slice(lastByModel + 1)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => ({
      toolName: names.get(item.call_id ?? '') ?? 'unknown',
      output: parseOutput(typeof item.output === 'string' ? item.output : textOf(item.output)),
    }));
  const tools: { type?: string; name?: string }[] = Array.isArray(body.tools) ? body.tools : [];
  return scriptedCall({
    index,
    system,
    prompt: lastUser >= 0 ? textOf(items[lastUser]?.content) : '',
    given,
    step,
    toolResults,
    tools: tools.filter((tool) => tool.type === 'function').map((tool) => tool.name ?? ''),
    headers,
  });
}

const textPart = (text: string) => ({ type: 'output_text', text, annotations: [] });

function response(reply: WireAnswer, { model, index, inputTokens }: AnswerContext) {
  const message = {
    type: 'message',
    id: `msg_${index}`,
    role: 'assistant',
    status: 'completed',
    content: [textPart(reply.text)],
  };
  const calls = reply.toolCalls.map((call, position) => ({
    type: 'function_call',
    id: `fc_${index}_${position}`,
    call_id: `call-${index}-${position}`,
    name: call.name,
    arguments: call.arguments,
    status: 'completed',
  }));
  const output = [...(reply.text ? [message] : []), ...calls];
  const outputTokens = roughTokens(JSON.stringify(output));
  return {
    id: `resp_${index}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status: 'completed',
    error: null,
    incomplete_details: null,
    output,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
  };
}

export const responsesDialect: WireDialect = {
  name: 'responses',
  path: '/responses',
  read,
  inputTokens: (body) => roughTokens(JSON.stringify(body.input ?? '') + String(body.instructions ?? '')),
  usage(reply, context) {
    const { id, usage } = response(reply, context);
    return { responseId: id, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  },
  answer: response,
  events(reply, context) {
    const whole = response(reply, context);
    const events: string[] = [];
    let sequence = 0;
    const send = (type: string, data: Record<string, unknown>) =>
      events.push(namedEvent(type, { sequence_number: sequence++, ...data }));
    send('response.created', {
      response: { ...whole, status: 'in_progress', output: [], usage: null },
    });
    whole.output.forEach((item, output_index) => {
      if (item.type === 'message' && 'content' in item) {
        send('response.output_item.added', {
          output_index,
          item: { ...item, status: 'in_progress', content: [] },
        });
        const text = item.content[0]?.text ?? '';
        send('response.content_part.added', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part: textPart(''),
        });
        send('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: text });
        send('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
        send('response.content_part.done', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part: textPart(text),
        });
      } else if ('arguments' in item) {
        send('response.output_item.added', {
          output_index,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        send('response.function_call_arguments.delta', {
          item_id: item.id,
          output_index,
          delta: item.arguments,
        });
        send('response.function_call_arguments.done', {
          item_id: item.id,
          output_index,
          arguments: item.arguments,
        });
      }
      send('response.output_item.done', { output_index, item });
    });
    send('response.completed', { response: whole });
    return events;
  },
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: status === 429 ? 'rate_limit_exceeded' : null,
    },
  }),
  malformed: {
    plain: '{"id":"resp_x","object":"response","status":"completed","output":[{"type":',
    stream: 'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{\n\n',
  },
};
