import type { TeamEvent } from '../../events/team-event-map.js';

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

/** A step inside a turn that the events tell: a tool call or its result (once events carry them). */
interface TurnStep {
  readonly kind: 'tool-called' | 'tool-result';
  readonly tool: string;
  /** The rest of the event's data, as JSON. */
  readonly detail: string;
}

export interface TurnRecord {
  readonly turn: number;
  readonly reason: string;
  readonly taskId: string | null;
  readonly startedAt: string;
  /** The messages the turn was given, as they were sent. */
  readonly messages: { readonly from: string; readonly content: string }[];
  readonly steps: TurnStep[];
  tokens: number | null;
  output: string | null;
  error: string | null;
  status: string | null;
}

type Loose = { readonly type: string; readonly data: Record<string, unknown> };

function stepOf(event: Loose): TurnStep | undefined {
  const kind =
    event.type === 'team:tool-called'
      ? 'tool-called'
      : event.type === 'team:tool-result'
        ? 'tool-result'
        : undefined;
  if (!kind) return undefined;
  const { member: _member, agent: _agent, turn: _turn, toolName, tool, ...rest } = event.data;
  return { kind, tool: String(toolName ?? tool ?? 'tool'), detail: JSON.stringify(rest) };
}

/** One agent's turns, in order, with what each was given, did and answered. */
export function transcriptOf(events: readonly TeamEvent[], agent: string): TurnRecord[] {
  const turns: TurnRecord[] = [];
  const sent = new Map<string, { from: string; content: string }>();
  let current: TurnRecord | undefined;
  for (const event of events) {
    const loose = event as unknown as Loose;
    if (event.type === 'team:message-sent') sent.set(event.data.id, event.data);
    // Turn events name the agent as `member`, transcript events as `agent`.
    if ((loose.data.member ?? loose.data.agent) !== agent) continue;
    if (event.type === 'team:member-started') {
      current = {
        turn: event.data.turn,
        reason: event.data.reason,
        taskId: event.data.taskId,
        startedAt: event.timestamp,
        messages: event.data.messageIds.flatMap((id) => sent.get(id) ?? []),
        steps: [],
        tokens: null,
        output: null,
        error: null,
        status: null,
      };
      turns.push(current);
    } else if (event.type === 'team:turn-usage' && current) {
      current.tokens = (current.tokens ?? 0) + event.data.usage.totalTokens;
    } else if (event.type === 'team:member-finished' && current) {
      current.output = event.data.output;
      current.error = event.data.error;
      current.status = event.data.status;
    } else {
      const step = stepOf(loose);
      if (step && current) current.steps.push(step);
    }
  }
  return turns;
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
