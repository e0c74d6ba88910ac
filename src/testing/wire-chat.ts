import type { IncomingHttpHeaders } from 'node:http';
import type { WireAnswer } from './faults.js';
import { isGiven, roughTokens, scriptedCall, type ToolResult, textOf } from './scripted-call.js';
import { type AnswerContext, parseOutput, type WireBody, type WireDialect } from './wire.js';

// OpenAI's chat completions (`POST /v1/chat/completions`), what `openai-compatible/<id>`
// and `createOpenAI(...).chat(id)` speak.

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string } }[];
  tool_call_id?: string;
}

function read(body: WireBody, headers: IncomingHttpHeaders, index: number) {
  const messages: ChatMessage[] = Array.isArray(body.messages) ? body.messages : [];
  const system = messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => textOf(message.content))
    .join('\n');
  const lastUser = messages.findLastIndex(
    (message) => message.role === 'user' && !isGiven(textOf(message.content)),
  );
  const after = messages.slice(lastUser + 1);
  const given = after.flatMap((message) => (message.role === 'user' ? [textOf(message.content)] : []));
  const lastAssistant = after.findLastIndex((message) => message.role === 'assistant');
  const names = new Map<string, string>();
  for (const message of after)
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  const toolResults: ToolResult[] = after
    .slice(lastAssistant + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      toolName: names.get(message.tool_call_id ?? '') ?? 'unknown',
      output: parseOutput(textOf(message.content)),
    }));
  const tools: { function?: { name?: string } }[] = Array.isArray(body.tools) ? body.tools : [];
  return scriptedCall({
    index,
    system,
    prompt: lastUser >= 0 ? textOf(messages[lastUser]?.content) : '',
    given,
    step: after.filter((message) => message.role === 'assistant').length,
    toolResults,
    tools: tools.map((tool) => tool.function?.name ?? ''),
    headers,
  });
}

function completion(reply: WireAnswer, { model, index, inputTokens }: AnswerContext) {
  const toolCalls = reply.toolCalls.map((call, position) => ({
    id: `call-${index}-${position}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const outputTokens = roughTokens(reply.text + JSON.stringify(toolCalls));
  return {
    base: { id: `chatcmpl-${index}`, created: Math.floor(Date.now() / 1000), model },
    message: {
      role: 'assistant',
      content: reply.text || null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  };
}

export const chatDialect: WireDialect = {
  name: 'chat',
  path: '/chat/completions',
  read,
  inputTokens: (body) => roughTokens(JSON.stringify(body.messages)),
  usage(reply, context) {
    const { base, usage } = completion(reply, context);
    return { responseId: base.id, inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
  },
  answer(reply, context) {
    const { base, message, finishReason, usage } = completion(reply, context);
    return {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage,
    };
  },
  events(reply, context) {
    const { base, message, finishReason, usage } = completion(reply, context);
    const chunk = (choice: unknown, extra: object = {}) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`;
    const toolCalls = (message.tool_calls ?? []).map((call, position) => ({ index: position, ...call }));
    return [
      chunk({
        index: 0,
        delta: {
          role: 'assistant',
          content: message.content ?? '',
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: null,
      }),
      chunk({ index: 0, delta: {}, finish_reason: finishReason }, { usage }),
      'data: [DONE]\n\n',
    ];
  },
  errorBody: (status, message) => ({
    error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error' },
  }),
  malformed: {
    plain: '{"id":"chatcmpl-x","object":"chat.completion","choices":[{"index":0,"message":',
    stream: 'data: {"id":"chatcmpl-x","object":"chat.completion.chunk","choices":[{"delta":\n\n',
  },
};
