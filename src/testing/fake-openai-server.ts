import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { fn, parseOptions } from '../errors/options-schema.js';
import {
  checkFault,
  type FaultedCall,
  type FaultScript,
  faultAnswer,
  serveFault,
  type WireAnswer,
} from './faults.js';
import {
  argumentsOf,
  LATENCY_SCHEMA,
  type Latency,
  type NormalReply,
  replyAfter,
  type Script,
  type ScriptedCall,
} from './scripted-call.js';
import type { ServedTokens } from './scripted-model.js';
import type { WireApiName, WireBody } from './wire.js';
import { chatDialect } from './wire-chat.js';
import { messagesDialect } from './wire-messages.js';
import { responsesDialect } from './wire-responses.js';

/** What `startFakeOpenAIServer` takes besides its script. */
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

/** A request the server received, as it came. */
export interface ReceivedRequest {
  /** The API it spoke: OpenAI's chat completions or Responses, or Anthropic's Messages. */
  readonly api: WireApiName;
  /** Its JSON body: the model, the prompt, and the settings (`temperature`, `max_tokens`, ...). */
  readonly body: Readonly<WireBody>;
}

/** An answer the server sent whole, with the tokens its usage reported. */
export interface ServedAnswer {
  /** The response's id, as the answer carries it (`chatcmpl-3`, `resp_3`, `msg_3`). */
  readonly responseId: string;
  /** The call it answered. */
  readonly call: ScriptedCall;
  /** The input tokens the answer reports. */
  readonly inputTokens: number;
  /** The output tokens the answer reports. */
  readonly outputTokens: number;
}

/** A model server on 127.0.0.1 answering from a script, in three APIs. */
export interface FakeOpenAIServer {
  /** The base URL to give a client, ending in `/v1`. */
  readonly url: string;
  /** Every call received, in order, faulted ones included. */
  readonly calls: ScriptedCall[];
  /** The request of each call, in the same order as `calls`. */
  readonly requests: readonly ReceivedRequest[];
  /** The calls answered with a fault, and which. */
  readonly faulted: readonly FaultedCall[];
  /**
   * The tokens it served: every answer with a usage (faults that answer 200 included) counts
   * once its last byte is handed to the connection; one whose client had gone before it was
   * written does not. Also at `GET /v1/served`, as JSON, for a test in another process.
   */
  readonly served: ServedTokens;
  /** Each answer counted in `served`, in the order they were sent. */
  readonly answers: readonly ServedAnswer[];
  /** Stops the server at once: open connections are cut, a call left hanging by a `hang` fault too. */
  close(): Promise<void>;
}

const FAKE_SERVER_SCHEMA = z.strictObject({
  latencyMs: LATENCY_SCHEMA.optional(),
  faults: fn<FaultScript>('a function of the call answering a fault, or undefined').optional(),
} satisfies Record<keyof FakeOpenAIServerOptions, z.ZodType>);

const DIALECTS = [chatDialect, responsesDialect, messagesDialect];

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

function wire(reply: NormalReply): WireAnswer {
  return {
    text: reply.text,
    toolCalls: reply.toolCalls.map((call) => ({
      name: call.toolName,
      arguments: argumentsOf(call),
    })),
  };
}

/**
 * A real HTTP server speaking the model APIs the AI SDK's providers speak, on one base URL,
 * each plain and streamed (server-sent events in the API's own format):
 * - OpenAI's chat completions, `POST /v1/chat/completions` (`openai-compatible/<id>`), and
 *   `GET /v1/models`;
 * - OpenAI's Responses API, `POST /v1/responses` (`openai/<id>`);
 * - Anthropic's Messages API, `POST /v1/messages` (`anthropic/<id>`).
 * It answers from the same scripts as `scriptedModel`: the whole provider path of a team is
 * tested over HTTP, with no key. Who asks (`call.agent`, `reason`, `taskId`, ...) is read
 * from the turn headers the provider sends with each request. `faults` makes the calls you
 * pick fail the way real providers do (see `ModelFault`), in each API's format.
 *
 * @example
 * const server = await fakeOpenAIServer(['Hello!']);
 * process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;   // then model: 'openai-compatible/any'
 * process.env.OPENAI_BASE_URL = server.url;              // or 'openai/any' (OPENAI_API_KEY set to anything)
 * process.env.ANTHROPIC_BASE_URL = server.url;           // or 'anthropic/any' (ANTHROPIC_API_KEY too)
 * await server.close();
 */
export async function fakeOpenAIServer(
  script: Script,
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  parseOptions(FAKE_SERVER_SCHEMA, options, 'fakeOpenAIServer');
  const calls: ScriptedCall[] = [];
  const requests: ReceivedRequest[] = [];
  const faulted: FaultedCall[] = [];
  const answers: ServedAnswer[] = [];
  const served = (): ServedTokens => {
    const inputTokens = answers.reduce((sum, answer) => sum + answer.inputTokens, 0);
    const outputTokens = answers.reduce((sum, answer) => sum + answer.outputTokens, 0);
    return { responses: answers.length, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  };
  // node:http is loaded here, not with the package: a process that only uses scriptedModel does without it.
  const { createServer } = await import('node:http');
  const server = createServer(async (request, response) => {
    const dialect = DIALECTS.find((each) => request.url === `/v1${each.path}`);
    try {
      if (request.method === 'GET' && request.url === '/v1/models') {
        send(response, 200, {
          object: 'list',
          data: [{ id: 'scripted', object: 'model', owned_by: 'agent-teams' }],
        });
        return;
      }
      if (request.method === 'GET' && request.url === '/v1/served') {
        send(response, 200, served());
        return;
      }
      if (request.method !== 'POST' || !dialect) {
        send(response, 404, {
          error: { message: `No route ${request.method} ${request.url}`, type: 'invalid_request_error' },
        });
        return;
      }
      const body: WireBody = JSON.parse(await readBody(request));
      const stream = Boolean(body.stream);
      const call = dialect.read(body, request.headers, calls.length);
      const fault = options.faults?.(call, [...calls]);
      calls.push(call);
      requests.push({ api: dialect.name, body });
      if (fault) {
        faulted.push({ call, fault: checkFault(fault) });
        if (serveFault(fault, request, response, stream, dialect)) return;
      }
      const reply = (fault && faultAnswer(fault)) ?? wire(await replyAfter(options.latencyMs, script, call));
      const context = {
        model: String(body.model ?? 'scripted'),
        index: call.index,
        inputTokens: dialect.inputTokens(body),
      };
      // The client gave up while the answer was made (its call was aborted, its process died): nothing is sent.
      if (response.destroyed || request.socket.destroyed) return;
      response.once('finish', () => answers.push({ call, ...dialect.usage(reply, context) }));
      if (!stream) {
        send(response, 200, dialect.answer(reply, context));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of dialect.events(reply, context)) response.write(event);
      response.end();
    } catch (error) {
      if (!response.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        send(response, 500, (dialect ?? chatDialect).errorBody(500, message));
      } else response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    requests,
    faulted,
    get served() {
      return served();
    },
    answers,
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
