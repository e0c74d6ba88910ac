import type { StopReason, TaskCounts, TurnReason } from '../events/team-event-map.js';
import {
  isWaiting,
  openQuestions,
  openRequests,
  pendingAnswers,
  unseenByLead,
} from '../fold/request-queries.js';
import type { AgentRunState, RunState } from '../fold/run-state.js';
import { QUIET_KINDS } from '../mailbox/notices.js';
import type { TeamRules } from '../store/team-store.js';

/** What the task list and inboxes say of one agent, read in the transaction that decides. */
interface AgentSnapshot {
  /** The task it holds (in progress, its own). */
  readonly held: string | null;
  /** The first task it may claim now (while the lead is in a turn: one assigned to it). */
  readonly claimable: string | null;
  /** Its unread messages, oldest first. */
  readonly unread: readonly string[];
  /** Whether any of them wakes it (notices alone do not). */
  readonly wakes?: boolean;
}

/**
 * What the schedule reads of the board, in the transaction that acts on it. Read as asked and
 * kept: the schedule stops at the first agent that can start, so most agents are never read
 * (a scale run's fifty members each read the list of a thousand tasks at every step otherwise).
 */
export interface BoardSnapshot {
  /** The task counts. */
  readonly counts: () => TaskCounts;
  /** What the board says of an agent that could start a turn now; `undefined` for the others. */
  readonly agent: (name: string) => AgentSnapshot | undefined;
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
  // An agent waiting on a request of its own takes no turn (and so holds no slot) until it is answered.
  const members = inRotation(state).filter(
    (agent) =>
      agent.status === 'idle' &&
      agent.countedTurns < limits.maxTurnsPerMember &&
      !isWaiting(state, agent.name),
  );
  const working = [...state.agents.values()].filter(
    (agent) => agent.role === 'member' && agent.status === 'working',
  ).length;
  const free = working < limits.maxConcurrentMembers ? members : [];
  const leadFree =
    lead?.status === 'idle' &&
    state.startOutput !== null &&
    lead.countedTurns < limits.maxLeadTurns &&
    !isWaiting(state, lead.name);
  return leadFree && lead ? [...free, lead] : free;
}

/** What `decide` needs of the board, read as it asks: take it, and read it, inside the transaction that acts on it. */
export function takeSnapshot(
  { board, mailbox }: TeamRules,
  state: RunState,
  limits: ScheduleLimits,
): BoardSnapshot {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  const leadInTurn = lead?.status === 'working';
  let able: Map<string, AgentRunState> | undefined;
  const read = new Map<string, AgentSnapshot>();
  const readAgent = (agent: AgentRunState): AgentSnapshot => {
    const messages = mailbox.unread(agent.name);
    // Notices alone wake nobody: they go with the reader's next turn (mailbox/notices.ts).
    const wakes = messages.some((message) => !QUIET_KINDS.has(message.kind));
    const unread = messages.map((message) => message.id);
    if (agent.role === 'lead') return { held: null, claimable: null, unread, wakes };
    const held = board.heldBy(agent.name)?.id ?? null;
    const claimable = held
      ? null
      : (board.nextClaimable(agent.name, { assignedOnly: leadInTurn })?.id ?? null);
    return { held, claimable, unread, wakes };
  };
  return {
    counts: () => board.counts(),
    agent: (name) => {
      const known = read.get(name);
      if (known) return known;
      able ??= new Map(candidates(state, limits).map((agent) => [agent.name, agent]));
      const agent = able.get(name);
      if (!agent) return undefined;
      const seen = readAgent(agent);
      read.set(name, seen);
      return seen;
    },
  };
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
    const seen = snapshot.agent(agent.name);
    if (!seen) continue;
    if (agent.role === 'member') {
      // Asked to shut down, it answers before it takes anything new.
      const taskId = seen.held ?? (agent.shutdownRequest ? null : seen.claimable);
      if (taskId) return turn(agent.name, 'task', taskId, seen.unread);
      // Answers to its requests come with any turn; with no task, a message turn brings them.
      if (wakes(seen) || pendingAnswers(state, agent.name).length > 0)
        return turn(agent.name, 'message', null, seen.unread);
    } else if (wakes(seen) || unseenByLead(state).length > 0 || pendingAnswers(state, agent.name).length > 0)
      // Requests to the lead give it a message turn to answer them in (once per request).
      return turn(agent.name, 'message', null, seen.unread);
  }
  // An open request or question is answered or expires (a deadline of the loop): the run waits for it.
  if (openRequests(state).length > 0 || openQuestions(state).length > 0) return { kind: 'wait' };
  if ([...state.agents.values()].some((agent) => agent.status === 'working')) return { kind: 'wait' };
  const counts = snapshot.counts();
  if (counts.total === 0) return { kind: 'end', stopReason: 'no-tasks' };
  if (counts.pending + counts.inProgress === 0) return { kind: 'end', stopReason: 'completed' };
  // A stalled turn that moved nothing could not help, and another would not either.
  const helped = state.progressAtStall === null || state.progressAtStall !== state.progress;
  if (lead.status === 'idle' && lead.countedTurns < limits.maxLeadTurns && helped) {
    // With the notices it has not read (they woke nobody: mailbox/notices.ts).
    return turn(lead.name, 'stalled', null, snapshot.agent(lead.name)?.unread ?? []);
  }
  const outOfTurns =
    lead.countedTurns >= limits.maxLeadTurns ||
    [...state.agents.values()].some((agent) => agent.status === 'stopped');
  return { kind: 'end', stopReason: outOfTurns ? 'turn-limit' : 'stalled' };
}

function wakes(seen: AgentSnapshot): boolean {
  return seen.unread.length > 0 && seen.wakes !== false;
}

function turn(
  agent: string,
  reason: TurnReason,
  taskId: string | null,
  messageIds: readonly string[],
): Decision {
  return { kind: 'turn', agent, reason, taskId, messageIds };
}
