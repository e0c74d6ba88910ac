import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ScriptedCall } from './scripted-call.js';

/**
 * A misbehaviour of the model server, injected by `fakeOpenAIServer` for one call in place
 * of the script's reply, in the format of the API the call spoke:
 * - `status`: an HTTP error with the API's error body (429 and 5xx are what providers send
 *   when overloaded, Anthropic's 529 too); `retryAfterSeconds` adds a `Retry-After` header;
 * - `reset`: the connection is reset before any answer;
 * - `hang`: no answer ever comes (the connection stays open until the client gives up or
 *   the server closes);
 * - `malformed-json`: a 200 whose body (or, streamed, whose chunk) is not JSON;
 * - `invalid-tool-arguments`: a call of `toolName` whose arguments string is not JSON (a
 *   non-streamed Anthropic answer carries arguments as an object, so there they are that
 *   cut string instead, which no tool's object schema takes);
 * - `unknown-tool`: a call of a tool that was not offered (`toolName`, default `no_such_tool`);
 * - `empty`: a 200 with no text and no tool calls.
 */
export type ModelFault =
  | {
      /** An HTTP error with the API's error body. */
      readonly kind: 'status';
      /** An HTTP error status, 400 to 599. */
      readonly status: number;
      /** Sent as `Retry-After` (seconds, a fraction allowed), which the AI SDK waits before it retries. */
      readonly retryAfterSeconds?: number;
      /** The error's message in the body; by default one naming the status and the injection. */
      readonly message?: string;
    }
  | {
      /** The connection is reset before any answer. */
      readonly kind: 'reset';
    }
  | {
      /** No answer ever comes. */
      readonly kind: 'hang';
    }
  | {
      /** A 200 whose body (or chunk) is not JSON. */
      readonly kind: 'malformed-json';
    }
  | {
      /** A tool call whose arguments are not JSON. */
      readonly kind: 'invalid-tool-arguments';
      /** The tool called. */
      readonly toolName: string;
    }
  | {
      /** A call of a tool that was not offered. */
      readonly kind: 'unknown-tool';
      /** The tool called; default `no_such_tool`. */
      readonly toolName?: string;
    }
  | {
      /** A 200 with no text and no tool calls. */
      readonly kind: 'empty';
    };

/**
 * Which calls fail, and how: given the call (who asks, why, its `index`) and the calls the
 * server received before it, a fault, or `undefined` to answer from the script. A retry of
 * a call is a new call, with the same agent, turn and step.
 *
 * @example
 * // The first call of agent a gets a 429; its retry is answered.
 * const faults: FaultScript = (call, earlier) =>
 *   call.agent === 'a' && !earlier.some((e) => e.agent === 'a') ? { kind: 'status', status: 429 } : undefined;
 */
export type FaultScript = (call: ScriptedCall, earlier: readonly ScriptedCall[]) => ModelFault | undefined;

/** A call the server answered with a fault instead of the script. */
export interface FaultedCall {
  /** The call that was answered with the fault. */
  readonly call: ScriptedCall;
  /** The fault it got. */
  readonly fault: ModelFault;
}

/** What a completion carries, arguments as raw strings so a fault can send ones that do not parse. */
export interface WireAnswer {
  readonly text: string;
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
}

/** Refuses a fault a real server could not send, so a test cannot pass on a typo. */
export function checkFault(fault: ModelFault): ModelFault {
  if (fault.kind === 'status') {
    if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
      throw new Error(`A status fault needs an HTTP error status (400 to 599), not ${fault.status}.`);
    }
    const after = fault.retryAfterSeconds;
    if (after !== undefined && !(Number.isFinite(after) && after >= 0)) {
      throw new Error(`retryAfterSeconds must be a number of seconds of at least 0, not ${after}.`);
    }
  }
  return fault;
}

/** The answer a fault that still answers 200 gives in place of the script's; others have none. */
export function faultAnswer(fault: ModelFault): WireAnswer | undefined {
  switch (fault.kind) {
    // Cut where a real server cut short would: inside an object, so no parser accepts it.
    case 'invalid-tool-arguments':
      return { text: '', toolCalls: [{ name: fault.toolName, arguments: '{"taskId": "task-1", "stat' }] };
    case 'unknown-tool':
      return { text: '', toolCalls: [{ name: fault.toolName ?? 'no_such_tool', arguments: '{}' }] };
    case 'empty':
      return { text: '', toolCalls: [] };
    default:
      return undefined;
  }
}

const INJECTED = '(a fault injected by fakeOpenAIServer)';

function statusMessage(status: number): string {
  if (status === 429) return `Rate limit reached ${INJECTED}`;
  if (status >= 500) return `The server had an error (HTTP ${status}) ${INJECTED}`;
  return `HTTP ${status} ${INJECTED}`;
}

/** How one API writes the faults that are not answers: its error body, and bodies that do not parse. */
export interface FaultDialect {
  /** The API's error body for an HTTP error status. */
  errorBody(status: number, message: string): unknown;
  /** A body cut inside its JSON: whole (`plain`), or as the API's first streamed event (`stream`). */
  readonly malformed: { readonly plain: string; readonly stream: string };
}

/**
 * Sends a fault that is not an answer (`status`, `reset`, `hang`, `malformed-json`) in the
 * API's own format; answers false for the others, which the server answers as replies.
 */
export function serveFault(
  fault: ModelFault,
  request: IncomingMessage,
  response: ServerResponse,
  stream: boolean,
  dialect: FaultDialect,
): boolean {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      response.writeHead(fault.status, headers);
      response.end(
        JSON.stringify(dialect.errorBody(fault.status, fault.message ?? statusMessage(fault.status))),
      );
      return true;
    }
    case 'reset':
      // An RST, not a polite close: what a crashed proxy or a dropped connection looks like.
      request.socket.resetAndDestroy();
      return true;
    case 'hang':
      // Nothing is sent: the client gives up, or the server's close() cuts the connection.
      return true;
    case 'malformed-json':
      if (stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.end(dialect.malformed.stream);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(dialect.malformed.plain);
      }
      return true;
    default:
      return false;
  }
}
