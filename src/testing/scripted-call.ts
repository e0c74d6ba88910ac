import { setTimeout as sleep } from 'node:timers/promises';
import type { TurnReason } from '../events/team-event-map.js';

/** What a scripted model is asked: the call, with what a script usually decides on. */
export interface ScriptedCall {
  /** How many calls this model (or server) answered before this one. */
  readonly index: number;
  /** The agent asking, from its team briefing ("You are <name>, a member of the team ..."). */
  readonly agent: string | undefined;
  /** Why the agent takes this turn, from its briefing ("[turn: task task-2]"), if it says. */
  readonly reason: TurnReason | undefined;
  readonly taskId: string | undefined;
  readonly system: string;
  /** The turn's briefing: the text of the last user message. */
  readonly prompt: string;
  /** Model calls already made in this turn: 0 for a turn's first call. */
  readonly step: number;
  /** Results of the tool calls of the previous step, in order. */
  readonly toolResults: readonly ToolResult[];
  /** The names of the tools offered. */
  readonly tools: readonly string[];
}

export interface ToolResult {
  readonly toolName: string;
  /** The tool's answer: the object a team tool returned, or an error's text. */
  readonly output: unknown;
}

/** A scripted reply: text, tool calls, or both. A plain string is text. */
export type ScriptedReply =
  | string
  | {
      readonly text?: string;
      readonly toolCalls?: readonly { readonly toolName: string; readonly input: Record<string, unknown> }[];
    };

/** Replies in order (call N gets reply N), or a function computing each from the call. */
export type Script =
  | readonly ScriptedReply[]
  | ((call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>);

const REASONS = new Set<string>(['start', 'task', 'message', 'stalled', 'synthesis']);

/** The parts of a call every transport has, turned into a `ScriptedCall`. */
export function scriptedCall(parts: {
  index: number;
  system: string;
  prompt: string;
  step: number;
  toolResults: readonly ToolResult[];
  tools: readonly string[];
}): ScriptedCall {
  const agent = /You are ([A-Za-z0-9][A-Za-z0-9._-]*), (?:the lead|a member) of the team/.exec(
    parts.system,
  )?.[1];
  const turn = /^\[turn: (\w+)(?: ([^\]\s]+))?\]/.exec(parts.prompt);
  const reason = turn?.[1] && REASONS.has(turn[1]) ? (turn[1] as TurnReason) : undefined;
  return { ...parts, agent, reason, taskId: turn?.[2] };
}

export interface NormalReply {
  readonly text: string;
  readonly toolCalls: readonly { readonly toolName: string; readonly input: Record<string, unknown> }[];
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

/** The text of a message's content: a string, or the text parts of a list of parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/** Simulated model time: a fixed number of ms, or one computed per call. */
export type Latency = number | ((call: ScriptedCall) => number);

/**
 * A call's reply as every transport gives it: after the simulated latency (cut short by
 * `signal`), from the script.
 */
export async function replyAfter(
  latency: Latency | undefined,
  script: Script,
  call: ScriptedCall,
  signal?: AbortSignal,
): Promise<NormalReply> {
  const ms = typeof latency === 'function' ? latency(call) : (latency ?? 0);
  if (ms > 0) await sleep(ms, undefined, { signal });
  signal?.throwIfAborted();
  return replyTo(script, call);
}
