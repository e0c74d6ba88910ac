import type { IncomingHttpHeaders } from 'node:http';
import type { WireAnswer } from './faults.js';
import { isGiven, roughTokens, scriptedCall, type ToolResult, textOf } from './scripted-call.js';
import { type AnswerContext, namedEvent, parseOutput, type WireBody, type WireDialect } from './wire.js';

// Anthropic's Messages API (`POST /v1/messages`), what `anthropic/<id>` speaks: the system
// prompt apart, tool calls as `tool_use` blocks, and their results sent back as
// `tool_result` blocks inside a user message.

interface Block {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
  content?: unknown;
}

interface Message {
  role?: string;
  content?: string | Block[];
}

const blocks = (message: Message | undefined): Block[] =>
  typeof message?.content === 'string' ? [{ type: 'text', text: message.content }] : (message?.content ?? []);

function read(body: WireBody, headers: IncomingHttpHeaders, index: number) {
  const messages: Message[] = Array.isArray(body.messages) ? body.messages : [];
  // The briefing is the last user message with text: tool results travel as user messages too.
  // Text given mid-turn travels beside tool results in a user message: it is no briefing.
  const texts = (message: Message | undefined) => blocks(message).filter((block) => block.type === 'text');
  const lastUser = messages.findLastIndex(
    (message) => message.role === 'user' && texts(message).some((block) => !isGiven(block.text ?? '')),
  );
  const after = messages.slice(lastUser + 1);
  const given = after.flatMap((message) =>
    message.role === 'user'
      ? texts(message).flatMap((block) => (isGiven(block.text ?? '') ? [block.text ?? ''] : []))
      : [],
  );
  const lastAssistant = after.findLastIndex((message) => message.role === 'assistant');
  const names = new Map<string, string>();
  for (const message of after)
    for (const block of blocks(message))
      if (block.type === 'tool_use') names.set(block.id ?? '', block.name ?? '');
  const toolResults: ToolResult[] = after
    .slice(lastAssistant + 1)
    .flatMap(blocks)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolName: names.get(block.tool_use_id ?? '') ?? 'unknown',
      output: parseOutput(textOf(block.content)),
    }));
  const tools: { name?: string }[] = Array.isArray(body.tools) ? body.tools : [];
  return scriptedCall({
    index,
    system: textOf(body.system),
    prompt: textOf(texts(messages[lastUser])),
    given,
    step: after.filter((message) => message.role === 'assistant').length,
    toolResults,
    tools: tools.map((tool) => tool.name ?? ''),
    headers,
  });
}

function message(reply: WireAnswer, { model, index, inputTokens }: AnswerContext) {
  const content = [
    ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
    ...reply.toolCalls.map((call, position) => ({
      type: 'tool_use',
      id: `toolu_${index}_${position}`,
      name: call.name,
      input: parseOutput(call.arguments),
    })),
  ];
  return {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    // Counted from the texts as given: a call's input may be nested past what JSON.stringify writes.
    usage: {
      input_tokens: inputTokens,
      output_tokens: roughTokens(reply.text + reply.toolCalls.map((call) => call.arguments).join('')),
    },
  };
}

export const messagesDialect: WireDialect = {
  name: 'messages',
  path: '/messages',
  read,
  inputTokens: (body) => roughTokens(JSON.stringify(body.messages) + JSON.stringify(body.system ?? '')),
  usage(reply, context) {
    const { id, usage } = message(reply, context);
    return { responseId: id, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  },
  answer: message,
  events(reply, context) {
    const whole = message(reply, context);
    const events = [
      namedEvent('message_start', {
        message: {
          ...whole,
          content: [],
          stop_reason: null,
          usage: { input_tokens: whole.usage.input_tokens, output_tokens: 1 },
        },
      }),
    ];
    // Streamed, a call's arguments come as raw JSON text: a fault's cut ones stay cut.
    const args = reply.toolCalls.map((call) => call.arguments);
    whole.content.forEach((block, index) => {
      if (block.type === 'text' && 'text' in block) {
        events.push(
          namedEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
          namedEvent('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }),
        );
      } else if ('id' in block) {
        events.push(
          namedEvent('content_block_start', {
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          }),
          namedEvent('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: args[index - (reply.text ? 1 : 0)] ?? '' },
          }),
        );
      }
      events.push(namedEvent('content_block_stop', { index }));
    });
    events.push(
      namedEvent('message_delta', {
        delta: { stop_reason: whole.stop_reason, stop_sequence: null },
        usage: { output_tokens: whole.usage.output_tokens },
      }),
      namedEvent('message_stop', {}),
    );
    return events;
  },
  errorBody: (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 429
          ? 'rate_limit_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error',
      message,
    },
  }),
  malformed: {
    plain: '{"id":"msg_x","type":"message","role":"assistant","content":[{"type":',
    stream: 'event: message_start\ndata: {"type":"message_start","message":{\n\n',
  },
};
