import type { IncomingHttpHeaders } from 'node:http';
import type { FaultDialect, WireAnswer } from './faults.js';
import type { ScriptedCall } from './scripted-call.js';

/** Which API a request to the fake server spoke. */
export type WireApiName = 'chat' | 'responses' | 'messages';

/** A request body as it came, a JSON object. */
// biome-ignore lint/suspicious/noExplicitAny: a wire body is whatever the client sent; each dialect reads it defensively.
export type WireBody = Record<string, any>;

/** What a dialect needs to answer one call. */
export interface AnswerContext {
  readonly model: string;
  readonly index: number;
  readonly inputTokens: number;
}

/** What an answer's usage says, and the answer's id. */
interface WireUsage {
  readonly responseId: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/**
 * One model API the fake server speaks: how its requests read as a `ScriptedCall`, and
 * how an answer (or a fault) is written in its own format, plain and streamed. The
 * server's routing, script, latency, faults and records are shared by all of them.
 */
export interface WireDialect extends FaultDialect {
  readonly name: WireApiName;
  /** The path it answers, under the server's `/v1`. */
  readonly path: string;
  read(body: WireBody, headers: IncomingHttpHeaders, index: number): ScriptedCall;
  /** The prompt's rough size in tokens, for the usage it reports. */
  inputTokens(body: WireBody): number;
  /** The answer's id and the tokens its usage reports, as the answer carries them. */
  usage(reply: WireAnswer, context: AnswerContext): WireUsage;
  /** The whole answer, as a non-streamed response body. */
  answer(reply: WireAnswer, context: AnswerContext): unknown;
  /** The answer as server-sent events, each a whole `event:`/`data:` block ending in a blank line. */
  events(reply: WireAnswer, context: AnswerContext): string[];
}

/** JSON where it parses, the text otherwise: a tool's output sent back, or a fault's cut arguments. */
export function parseOutput(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** One server-sent event: `event:` named, as the Responses and Messages APIs send them. */
export function namedEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}
