import type { TeamEvent } from '../../events/team-event-map.js';
import { agentOf, type ToolPayload, toolPayload } from '../../fold/agent-transcript.js';

// What the page shows beside the runtime's fold (which it uses as it is): views the fold
// does not keep because the runtime never decides from them — who talked to whom, and each
// agent's turns one by one. Pure functions of the events, so replay shows them as they were.

/** The person running the team, as messages name them. */
export const PERSON = 'user';

export interface Traffic {
  readonly a: string;
  readonly b: string;
  /** Messages and task hand-overs between the two, either way. */
  count: number;
}

function pair(traffic: Map<string, Traffic>, from: string, to: string | null): void {
  if (!to || from === to) return;
  const [a, b] = from < to ? [from, to] : [to, from];
  const key = `${a}\u0000${b}`;
  const found = traffic.get(key);
  if (found) found.count++;
  else traffic.set(key, { a, b, count: 1 });
}

/**
 * Every pair of agents (and the person) that exchanged messages or tasks, with how much:
 * a message counts once per reader; a task counts when it is given to a member (created
 * for it, assigned) and when a member takes or finishes a task someone else made.
 */
export function trafficOf(events: readonly TeamEvent[]): Traffic[] {
  const traffic = new Map<string, Traffic>();
  for (const event of events) {
    switch (event.type) {
      case 'team:message-sent':
        for (const reader of event.data.to) pair(traffic, event.data.from, reader);
        break;
      case 'team:task-created':
        pair(traffic, event.data.by, event.data.task.assignee);
        break;
      case 'team:task-assigned':
        pair(traffic, event.data.by, event.data.assignee);
        break;
      case 'team:task-claimed':
        pair(traffic, event.data.member, event.data.task.createdBy);
        break;
      case 'team:task-completed':
        pair(traffic, event.data.by, event.data.task.createdBy);
        break;
    }
  }
  return [...traffic.values()];
}

/** A step inside a turn that the events tell: text it wrote, a tool call or its answer. */
export type TurnStep =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool-called'; readonly tool: string; readonly payload: ToolPayload }
  | {
      readonly kind: 'tool-result';
      readonly tool: string;
      readonly payload: ToolPayload;
      readonly isError: boolean;
    };

/** The status of a turn a stop cut: it never ended by itself. */
const CUT = 'cut';

export interface TurnRecord {
  readonly agent: string;
  readonly turn: number;
  readonly reason: string;
  readonly taskId: string | null;
  readonly startedAt: string;
  /** When it ended; `null` while it runs (or when its run stopped under it). */
  endedAt: string | null;
  /** The messages the turn was given, as they were sent. */
  readonly messages: { readonly from: string; readonly content: string }[];
  readonly steps: TurnStep[];
  tokens: number | null;
  output: string | null;
  error: string | null;
  /** The agent's status after it (`cut` when a stop cut it); `null` while it runs. */
  status: string | null;
}

function stepOf(event: TeamEvent): TurnStep | undefined {
  switch (event.type) {
    case 'team:turn-text':
      return { kind: 'text', text: event.data.text };
    case 'team:tool-called':
      return { kind: 'tool-called', tool: event.data.toolName, payload: toolPayload(event.data.input) };
    case 'team:tool-result': {
      const { toolName, output, isError } = event.data;
      return { kind: 'tool-result', tool: toolName, payload: toolPayload(output), isError };
    }
    default:
      return undefined;
  }
}

/**
 * Every agent's turns, in the order they began, each with what it was given, did and
 * answered (the events `agent-teams logs --agent` prints, read by the same `agentOf`).
 */
export function turnsOf(events: readonly TeamEvent[]): TurnRecord[] {
  const turns: TurnRecord[] = [];
  const sent = new Map<string, { from: string; content: string }>();
  const current = new Map<string, TurnRecord>();
  let previous = events[0]?.timestamp ?? '';
  for (const event of events) {
    if (event.type === 'team:message-sent') sent.set(event.data.id, event.data);
    if (event.type === 'team:complete' || event.type === 'team:resumed') {
      // A stop cuts the turns that run (a crash, at its last event): they end there, cut.
      const at = event.type === 'team:complete' ? event.timestamp : previous;
      for (const cut of current.values()) Object.assign(cut, { endedAt: at, status: CUT });
      current.clear();
    }
    previous = event.timestamp;
    const agent = agentOf(event);
    if (agent === undefined) continue;
    const record = current.get(agent);
    if (event.type === 'team:member-started') {
      const started: TurnRecord = {
        agent,
        turn: event.data.turn,
        reason: event.data.reason,
        taskId: event.data.taskId,
        startedAt: event.timestamp,
        endedAt: null,
        messages: event.data.messageIds.flatMap((id) => sent.get(id) ?? []),
        steps: [],
        tokens: null,
        output: null,
        error: null,
        status: null,
      };
      turns.push(started);
      current.set(agent, started);
    } else if (record) {
      if (event.type === 'team:member-finished') current.delete(agent);
      carryOn(record, event);
    }
  }
  return turns;
}

/** What an event of its agent adds to a turn that runs. */
function carryOn(record: TurnRecord, event: TeamEvent): void {
  if (event.type === 'team:turn-usage') {
    record.tokens = (record.tokens ?? 0) + event.data.usage.totalTokens;
  } else if (event.type === 'team:member-finished') {
    record.output = event.data.output;
    record.error = event.data.error;
    record.status = event.data.status;
    record.endedAt = event.timestamp;
  } else {
    const step = stepOf(event);
    if (step) record.steps.push(step);
  }
}

/** Milliseconds from the run's first event to its last (ended) or to `now` (going). */
export function elapsedMs(events: readonly TeamEvent[], going: boolean, now: number): number {
  const first = events[0];
  if (!first) return 0;
  const end = going ? now : Date.parse(events.at(-1)?.timestamp ?? first.timestamp);
  return Math.max(0, end - Date.parse(first.timestamp));
}

export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = `${seconds % 60}`.padStart(2, '0');
  return minutes >= 60
    ? `${Math.floor(minutes / 60)}h ${`${minutes % 60}`.padStart(2, '0')}m`
    : `${minutes}:${rest}`;
}

/**
 * The final answer of a run that ended (`team:complete` carries it), `''` when it stopped
 * without one; `null` while it goes (or when its log is from before answers were logged).
 */
export function answerOf(events: readonly TeamEvent[]): string | null {
  const last = events.findLast((event) => event.type === 'team:complete' || event.type === 'team:resumed');
  return last?.type === 'team:complete' ? (last.data.output ?? null) : null;
}

/** The latest text an agent wrote in the log: a step's text, or a turn's final reply. */
export function latestTextOf(events: readonly TeamEvent[], agent: string): string | null {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as TeamEvent;
    if (event.type === 'team:turn-text' && event.data.agent === agent) return event.data.text;
    if (event.type === 'team:member-finished' && event.data.member === agent && event.data.output.trim())
      return event.data.output;
  }
  return null;
}

/** Text an agent is streaming now, in which turn: what the model wrote since its last logged step. */
export interface Streaming {
  readonly turn: number;
  text: string;
}

/**
 * Keeps each working agent's streamed text (`team:text-delta`, live only) up to date with
 * the run's events, in the order the stream gives them: a step's text that is logged
 * (`team:turn-text`) or a turn that ends leaves the stream; a new turn starts it afresh.
 */
export function followStreaming(streaming: Map<string, Streaming>, event: TeamEvent): void {
  switch (event.type) {
    case 'team:text-delta': {
      const { agent, turn, delta } = event.data;
      const now = streaming.get(agent);
      if (now?.turn === turn) now.text += delta;
      else streaming.set(agent, { turn, text: delta });
      break;
    }
    case 'team:turn-text':
      if (streaming.get(event.data.agent)?.turn === event.data.turn) streaming.delete(event.data.agent);
      break;
    // A run that stops cuts every turn; one that goes on starts them again.
    case 'team:complete':
    case 'team:resumed':
      streaming.clear();
      break;
    case 'team:member-started':
    case 'team:member-finished': {
      const { member, turn } = event.data;
      const streamed = streaming.get(member)?.turn;
      // A turn's start ends an earlier turn's stream; its end ends its own.
      const over = event.type === 'team:member-started' ? turn - 1 : turn;
      if (streamed !== undefined && streamed <= over) streaming.delete(member);
      break;
    }
  }
}
