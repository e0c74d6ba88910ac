import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkFault,
  type FaultedCall,
  type FaultScript,
  faultAnswer,
  serveFault,
  type WireAnswer,
} from './faults.js';
import {
  type Latency,
  type NormalReply,
  replyAfter,
  roughTokens,
  type Script,
  type ScriptedCall,
  scriptedCall,
  type ToolResult,
  textOf,
} from './scripted-call.js';

export interface FakeOpenAIServerOptions {
  /** Simulated time per call, in ms (or computed per call). Default 0. */
  latencyMs?: Latency;
  /**
   * Calls to answer with a fault (see `ModelFault`) instead of the script: the script is
   * not asked for them (a list script still counts them, as call N gets reply N), and they
   * are answered at once, without `latencyMs`. Default: none.
   */
  faults?: FaultScript;
}

/** A chat-completions server on 127.0.0.1 answering from a script. */
export interface FakeOpenAIServer {
  /** The base URL to give a client, ending in `/v1`. */
  readonly url: string;
  /** Every call received, in order, faulted ones included. */
  readonly calls: ScriptedCall[];
  /** The calls answered with a fault, and which. */
  readonly faulted: readonly FaultedCall[];
  /** Stops the server at once: open connections are cut, a call left hanging by a `hang` fault too. */
  close(): Promise<void>;
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string } }[];
  tool_call_id?: string;
}

function parseOutput(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** Reads a chat-completions request (its body and headers) the way `scriptedCall` wants it. */
function fromChat(
  body: { messages?: ChatMessage[]; tools?: { function?: { name?: string } }[] },
  headers: IncomingHttpHeaders,
  index: number,
) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const system = messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => textOf(message.content))
    .join('\n');
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const after = messages.slice(lastUser + 1);
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
  return scriptedCall({
    index,
    system,
    prompt: lastUser >= 0 ? textOf(messages[lastUser]?.content) : '',
    step: after.filter((message) => message.role === 'assistant').length,
    toolResults,
    tools: (body.tools ?? []).map((tool) => tool.function?.name ?? ''),
    headers,
  });
}

function wire(reply: NormalReply): WireAnswer {
  return {
    text: reply.text,
    toolCalls: reply.toolCalls.map((call) => ({
      name: call.toolName,
      arguments: JSON.stringify(call.input),
    })),
  };
}

function completion(reply: WireAnswer, model: string, index: number, promptTokens: number) {
  const toolCalls = reply.toolCalls.map((call, position) => ({
    id: `call-${index}-${position}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const completionTokens = roughTokens(reply.text + JSON.stringify(toolCalls));
  return {
    id: `chatcmpl-${index}`,
    created: Math.floor(Date.now() / 1000),
    model,
    message: {
      role: 'assistant',
      content: reply.text || null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

/**
 * A real HTTP server speaking OpenAI's chat-completions API (`POST /v1/chat/completions`,
 * streaming or not, and `GET /v1/models`), answering from the same scripts as
 * `scriptedModel`: the whole provider path of a team is tested over HTTP, with no key.
 * Who asks (`call.agent`, `reason`, `taskId`, ...) is read from the turn headers the
 * provider sends with each request. `faults` makes the calls you pick fail the way real
 * providers do (see `ModelFault`), plain and streamed.
 *
 * @example
 * const server = await fakeOpenAIServer(['Hello!']);
 * process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;   // then model: 'openai-compatible/any'
 * await server.close();
 */
export async function fakeOpenAIServer(
  script: Script,
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  const calls: ScriptedCall[] = [];
  const faulted: FaultedCall[] = [];
  const server = createServer(async (request, response) => {
    try {
      if (request.method === 'GET' && request.url === '/v1/models') {
        send(response, 200, {
          object: 'list',
          data: [{ id: 'scripted', object: 'model', owned_by: 'agent-teams' }],
        });
        return;
      }
      if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
        send(response, 404, {
          error: { message: `No route ${request.method} ${request.url}`, type: 'invalid_request_error' },
        });
        return;
      }
      const body = JSON.parse(await readBody(request));
      const call = fromChat(body, request.headers, calls.length);
      const fault = options.faults?.(call, [...calls]);
      calls.push(call);
      if (fault) {
        faulted.push({ call, fault: checkFault(fault) });
        if (serveFault(fault, request, response, Boolean(body.stream))) return;
      }
      const reply = (fault && faultAnswer(fault)) ?? wire(await replyAfter(options.latencyMs, script, call));
      const answer = completion(
        reply,
        String(body.model ?? 'scripted'),
        call.index,
        roughTokens(JSON.stringify(body.messages)),
      );
      const base = { id: answer.id, created: answer.created, model: answer.model };
      if (!body.stream) {
        send(response, 200, {
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: answer.message, finish_reason: answer.finishReason }],
          usage: answer.usage,
        });
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (choice: unknown, usage?: unknown) =>
        response.write(
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...(usage ? { usage } : {}) })}\n\n`,
        );
      const toolCalls = (answer.message.tool_calls ?? []).map((call, position) => ({
        index: position,
        ...call,
      }));
      chunk({
        index: 0,
        delta: {
          role: 'assistant',
          content: answer.message.content ?? '',
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: null,
      });
      chunk({ index: 0, delta: {}, finish_reason: answer.finishReason }, answer.usage);
      response.end('data: [DONE]\n\n');
    } catch (error) {
      if (!response.headersSent) {
        send(response, 500, {
          error: { message: error instanceof Error ? error.message : String(error), type: 'server_error' },
        });
      } else response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    faulted,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Ends every connection at once, or close() would wait for them: a hung call's, and
        // ones a client keeps (undici holds idle ones for 4 s, and one it opened but never
        // used is not idle to Node). Calls still in flight are cut off.
        server.closeAllConnections();
      }),
  };
}
