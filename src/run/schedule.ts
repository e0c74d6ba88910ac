import type { StopReason, TaskCounts, TurnReason } from '../events/team-event-map.js';
import type { TeamRules } from '../store/team-store.js';
import type { AgentRunState, RunState } from './run-state.js';

/** What the task list and inboxes say of one agent, read in the transaction that decides. */
interface AgentSnapshot {
  /** The task it holds (in progress, its own). */
  readonly held: string | null;
  /** The first task it may claim now (while the lead is in a turn: one assigned to it). */
  readonly claimable: string | null;
  /** Its unread messages, oldest first. */
  readonly unread: readonly string[];
}

export interface BoardSnapshot {
  readonly counts: TaskCounts;
  /** The agents that could start a turn now; the others are not read. */
  readonly agents: ReadonlyMap<string, AgentSnapshot>;
}

/** The options the schedule follows. */
export interface ScheduleLimits {
  readonly maxConcurrentMembers: number;
  readonly maxLeadTurns: number;
  readonly maxTurnsPerMember: number;
}

/** What the run does next. */
export type Decision =
  | {
      readonly kind: 'turn';
      readonly agent: string;
      readonly reason: TurnReason;
      /** The task the turn is for: held already, or claimed as the turn starts. */
      readonly taskId: string | null;
      /** The unread messages the turn is given (marked read when it ends). */
      readonly messageIds: readonly string[];
    }
  /** Turns are running: wait for one to end or for a commit. */
  | { readonly kind: 'wait' }
  /** Nothing runs and nothing can start: the run ends (after its synthesis, if it has one). */
  | { readonly kind: 'end'; readonly stopReason: StopReason };

/** Members in turn order: the ones after the member that started last come first. */
function inRotation(state: RunState): AgentRunState[] {
  const members = [...state.agents.values()].filter((agent) => agent.role === 'member');
  const last = members.findIndex((agent) => agent.name === state.lastStarted);
  return [...members.slice(last + 1), ...members.slice(0, last + 1)];
}

/** The agents that may start a turn now: the ones a snapshot needs to read. */
function candidates(state: RunState, limits: ScheduleLimits): AgentRunState[] {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  const members = inRotation(state).filter(
    (agent) => agent.status === 'idle' && agent.countedTurns < limits.maxTurnsPerMember,
  );
  const working = [...state.agents.values()].filter(
    (agent) => agent.role === 'member' && agent.status === 'working',
  ).length;
  const free = working < limits.maxConcurrentMembers ? members : [];
  const leadFree =
    lead?.status === 'idle' && state.startOutput !== null && lead.countedTurns < limits.maxLeadTurns;
  return leadFree && lead ? [...free, lead] : free;
}

/** Reads what `decide` needs of the candidates; call inside the transaction that acts on it. */
export function takeSnapshot(
  { board, mailbox }: TeamRules,
  state: RunState,
  limits: ScheduleLimits,
): BoardSnapshot {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  const leadInTurn = lead?.status === 'working';
  const agents = new Map<string, AgentSnapshot>();
  for (const agent of candidates(state, limits)) {
    const unread = mailbox.unread(agent.name).map((message) => message.id);
    if (agent.role === 'lead') {
      agents.set(agent.name, { held: null, claimable: null, unread });
      continue;
    }
    const held = board.heldBy(agent.name)?.id ?? null;
    const claimable = held
      ? null
      : (board.nextClaimable(agent.name, { assignedOnly: leadInTurn })?.id ?? null);
    agents.set(agent.name, { held, claimable, unread });
  }
  return { counts: board.counts(), agents };
}

/**
 * What to start next, from the run state and a board snapshot: a pure function. Members
 * first (a pool of `maxConcurrentMembers`, in turn order; a held task, then a claimable one,
 * then unread messages), then the lead's message turn; when nothing runs, the end or the
 * lead's stalled turn. The lead's first turn comes before everything.
 */
export function decide(state: RunState, snapshot: BoardSnapshot, limits: ScheduleLimits): Decision {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  if (!lead) return { kind: 'wait' };
  if (state.startOutput === null) {
    if (lead.status === 'idle') return turn(lead.name, 'start', null, []);
  }
  for (const agent of candidates(state, limits)) {
    const seen = snapshot.agents.get(agent.name);
    if (!seen) continue;
    if (agent.role === 'member') {
      const taskId = seen.held ?? seen.claimable;
      if (taskId) return turn(agent.name, 'task', taskId, seen.unread);
      if (seen.unread.length > 0) return turn(agent.name, 'message', null, seen.unread);
    } else if (seen.unread.length > 0) return turn(agent.name, 'message', null, seen.unread);
  }
  if ([...state.agents.values()].some((agent) => agent.status === 'working')) return { kind: 'wait' };
  const { counts } = snapshot;
  if (counts.total === 0) return { kind: 'end', stopReason: 'no-tasks' };
  if (counts.pending + counts.inProgress === 0) return { kind: 'end', stopReason: 'completed' };
  // A stalled turn that moved nothing could not help, and another would not either.
  const helped = state.progressAtStall === null || state.progressAtStall !== state.progress;
  if (lead.status === 'idle' && lead.countedTurns < limits.maxLeadTurns && helped) {
    return turn(lead.name, 'stalled', null, []);
  }
  const outOfTurns =
    lead.countedTurns >= limits.maxLeadTurns ||
    [...state.agents.values()].some((agent) => agent.status === 'stopped');
  return { kind: 'end', stopReason: outOfTurns ? 'turn-limit' : 'stalled' };
}

function turn(
  agent: string,
  reason: TurnReason,
  taskId: string | null,
  messageIds: readonly string[],
): Decision {
  return { kind: 'turn', agent, reason, taskId, messageIds };
}
