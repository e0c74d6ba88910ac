import type { AgentRole, TurnReason } from '../events/team-event-map.js';

/**
 * Who is asking and why, sent with every model call of a turn as HTTP headers (the AI SDK
 * passes `headers` to the provider's request, and to a mock model's call options). The
 * testing kit reads them to tell a script who asks; nothing reads a prompt's wording.
 */
export interface TurnIdentity {
  readonly runId: string;
  readonly agent: string;
  readonly role: AgentRole;
  readonly reason: TurnReason;
  /** The agent's turn number in the run, from 1. */
  readonly turn: number;
  readonly taskId: string | null;
}

export const TURN_HEADERS = {
  runId: 'x-agent-teams-run',
  agent: 'x-agent-teams-agent',
  role: 'x-agent-teams-role',
  reason: 'x-agent-teams-reason',
  turn: 'x-agent-teams-turn',
  taskId: 'x-agent-teams-task',
} as const;

/** The headers of a turn's model calls. */
export function turnHeaders(identity: TurnIdentity): Record<string, string> {
  return {
    [TURN_HEADERS.runId]: identity.runId,
    [TURN_HEADERS.agent]: identity.agent,
    [TURN_HEADERS.role]: identity.role,
    [TURN_HEADERS.reason]: identity.reason,
    [TURN_HEADERS.turn]: String(identity.turn),
    ...(identity.taskId ? { [TURN_HEADERS.taskId]: identity.taskId } : {}),
  };
}

const REASONS: ReadonlySet<string> = new Set<TurnReason>([
  'start',
  'task',
  'message',
  'stalled',
  'synthesis',
]);

/**
 * Reads a turn's identity back from request headers (any case, as HTTP servers lower them),
 * or `undefined` for a call that did not come from a team's turn.
 */
export function readTurnHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>> | undefined,
): TurnIdentity | undefined {
  if (!headers) return undefined;
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const get = (key: string) => {
    const value = lower.get(key);
    return Array.isArray(value) ? value[0] : value;
  };
  const agent = get(TURN_HEADERS.agent);
  const reason = get(TURN_HEADERS.reason);
  const role = get(TURN_HEADERS.role);
  if (!agent || !reason || !REASONS.has(reason) || (role !== 'lead' && role !== 'member')) return undefined;
  return {
    runId: get(TURN_HEADERS.runId) ?? '',
    agent,
    role,
    reason: reason as TurnReason,
    turn: Number(get(TURN_HEADERS.turn) ?? 0),
    taskId: get(TURN_HEADERS.taskId) ?? null,
  };
}
