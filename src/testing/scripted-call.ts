import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_MS } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { satisfying } from '../errors/options-schema.js';
import { NEW_MESSAGES_HEADER } from '../events/given-mid-turn.js';
import type { AgentRole, TurnReason } from '../events/team-event-map.js';
import { readTurnHeaders } from '../telemetry/turn-headers.js';

/**
 * What a scripted model is asked: the call, with what a script usually decides on.
 *
 * Who asks and why (`agent`, `role`, `reason`, `turn`, `taskId`, `runId`) come from the
 * headers a team's turn sends with each model call, never from the prompt's wording, so
 * an agent's instructions or a reworded briefing cannot mislead a script. A call made
 * outside a team (your own `generateText`) has them all `undefined`.
 */
export interface ScriptedCall {
  /** How many calls this model (or server) answered before this one. */
  readonly index: number;
  /** The agent asking. */
  readonly agent: string | undefined;
  /** Whether the agent asking is the team's lead or a member. */
  readonly role: AgentRole | undefined;
  /** Why the agent takes this turn: `start`, `task`, `message`, `stalled` or `synthesis`. */
  readonly reason: TurnReason | undefined;
  /** The agent's turn number in the run, from 1 (every call of one turn has the same). */
  readonly turn: number | undefined;
  /** The task the turn is for, if it is for one. */
  readonly taskId: string | undefined;
  /** The run the turn belongs to. */
  readonly runId: string | undefined;
  /** The system prompt: the agent's instructions and the team's rules. */
  readonly system: string;
  /** The turn's briefing: the text of the last user message (not counting those given mid-turn). */
  readonly prompt: string;
  /**
   * The messages the turn was given between its steps so far (they came while it ran), each
   * as the model read it, oldest first.
   */
  readonly given: readonly string[];
  /** Model calls already made in this turn: 0 for a turn's first call. */
  readonly step: number;
  /** Results of the tool calls of the previous step, in order. */
  readonly toolResults: readonly ToolResult[];
  /** The names of the tools offered. */
  readonly tools: readonly string[];
}

/** The answer of one tool call, as the next call of the turn sees it. */
export interface ToolResult {
  /** The tool called. */
  readonly toolName: string;
  /** The tool's answer: the object a team tool returned, or an error's text. */
  readonly output: unknown;
}

/**
 * A tool call of a scripted reply: its arguments as `input` (sent as JSON), or as
 * `inputText`, JSON text sent exactly as given: what a model may send that no object gives
 * (JSON cut short, or nested thousands of levels deep, past what JSON.stringify writes).
 * Anthropic's non-streamed answer carries arguments as an object, parsed from the text.
 */
export type ScriptedToolCall =
  | {
      /** The tool to call. */
      readonly toolName: string;
      /** Its arguments, sent as JSON. */
      readonly input: Record<string, unknown>;
    }
  | {
      /** The tool to call. */
      readonly toolName: string;
      /** Its arguments as JSON text, sent exactly as given. */
      readonly inputText: string;
    };

/** A scripted reply: text, tool calls, or both. A plain string is text. */
export type ScriptedReply =
  | string
  | {
      /** The reply's text. */
      readonly text?: string;
      /** Tool calls, in order. */
      readonly toolCalls?: readonly ScriptedToolCall[];
    };

/** A scripted tool call's arguments as the wire carries them: JSON text. */
export const argumentsOf = (call: ScriptedToolCall): string =>
  'inputText' in call ? call.inputText : JSON.stringify(call.input);

/** Replies in order (call N gets reply N), or a function computing each from the call. */
export type Script =
  | readonly ScriptedReply[]
  | ((call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>);

/** Whether a user message's text is what a turn was given between its steps, not a briefing. */
export function isGiven(text: string): boolean {
  return text.startsWith(NEW_MESSAGES_HEADER);
}

/**
 * The parts of a call every transport has, turned into a `ScriptedCall`: who asks is read
 * from the request's headers (the mock model's call options, or the HTTP request's).
 */
export function scriptedCall(parts: {
  index: number;
  system: string;
  prompt: string;
  given: readonly string[];
  step: number;
  toolResults: readonly ToolResult[];
  tools: readonly string[];
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
}): ScriptedCall {
  const identity = readTurnHeaders(parts.headers);
  // Field by field, not `...rest`: on Node 20 an optimised spread with properties after it
  // gives each object a hidden class of its own, and `calls` keeps one per call.
  return {
    index: parts.index,
    system: parts.system,
    prompt: parts.prompt,
    given: parts.given,
    step: parts.step,
    toolResults: parts.toolResults,
    tools: parts.tools,
    agent: identity?.agent,
    role: identity?.role,
    reason: identity?.reason,
    // A header left out reads as 0 or '' there; for a script, what was not sent is undefined.
    turn: identity?.turn || undefined,
    taskId: identity?.taskId ?? undefined,
    runId: identity?.runId || undefined,
  };
}

export interface NormalReply {
  readonly text: string;
  readonly toolCalls: readonly ScriptedToolCall[];
}

/** Answers a call from a script; a list that has run out is an error naming the call. */
async function replyTo(script: Script, call: ScriptedCall): Promise<NormalReply> {
  let reply: ScriptedReply | undefined;
  if (typeof script === 'function') reply = await script(call);
  else {
    reply = script[call.index];
    if (reply === undefined) {
      throw new Error(
        `The scripted model has ${script.length} replies and was called a ${call.index + 1}th time.`,
      );
    }
  }
  if (typeof reply === 'string') return { text: reply, toolCalls: [] };
  return { text: reply.text ?? '', toolCalls: reply.toolCalls ?? [] };
}

/** A rough token count (4 characters a token), so scripted runs show plausible usage. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);

/**
 * The text of a message's content: a string, or the text parts of a list of parts (`text`,
 * and the Responses API's `input_text` and `output_text`).
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (TEXT_PARTS.has(part?.type) && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/**
 * Simulated model time: a fixed number of ms, or one computed per call.
 * @inline
 */
export type Latency = number | ((call: ScriptedCall) => number);

/** The schema of a `latencyMs` option. */
export const LATENCY_SCHEMA = satisfying<Latency>(
  (latency) =>
    typeof latency === 'function' || (typeof latency === 'number' && latency >= 0 && latency <= MAX_MS),
  'a number of ms from 0 to 2147483647, or a function of the call answering one',
);

/**
 * A call's reply as every transport gives it: after the simulated latency, from the script;
 * `signal` cuts either short, as it cuts a real model's request (a script that never answers
 * still ends when its call is aborted).
 */
export async function replyAfter(
  latency: Latency | undefined,
  script: Script,
  call: ScriptedCall,
  signal?: AbortSignal,
): Promise<NormalReply> {
  const ms = typeof latency === 'function' ? latency(call) : (latency ?? 0);
  if (!(ms >= 0 && ms <= MAX_MS)) {
    throw new TeamError(
      'invalid-option',
      `latencyMs answered ${ms} for a call: it must be a number of ms from 0 to ${MAX_MS}.`,
    );
  }
  if (ms > 0) await sleep(ms, undefined, { signal });
  signal?.throwIfAborted();
  const reply = Promise.resolve(replyTo(script, call));
  if (!signal) return reply;
  return new Promise<NormalReply>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    reply.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}
