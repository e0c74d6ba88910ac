import { addUsage, NO_USAGE, type TokenUsage } from '../agent/usage.js';
import type { TeamTask } from '../board/task.js';
import type {
  AgentRole,
  MemberStatus,
  StopReason,
  SynthesisPart,
  TeamEvent,
  TeamEventMap,
  TurnReason,
} from '../events/team-event-map.js';
import { applyGovernanceEvent, emptyGovernance, type GovernanceState } from '../governance/request-state.js';
import type { IdleReason, MessageKind } from '../mailbox/message.js';
import { foldLifecycle } from './lifecycle-fold.js';

/** One agent as its run's events tell it. */
export interface AgentRunState {
  readonly name: string;
  readonly role: AgentRole;
  status: MemberStatus;
  /** Why its current turn runs; `null` between turns. */
  reason: TurnReason | null;
  /** The task its current turn was started with (or the one it claimed in it). */
  taskId: string | null;
  /** Turns taken, every kind included. */
  turns: number;
  /** Turns that count against its bound (for the lead: all but the synthesis). */
  countedTurns: number;
  usage: TokenUsage;
  /** Its final reply in its last turn that ended. */
  lastOutput: string;
  /** The agents it messaged in its current turn (the harness replies only to the others). */
  readonly answered: Set<string>;
  /** The part of a synthesis done in parts its current turn is, if it is one. */
  synthesis: SynthesisPart | null;
  /** A graceful shutdown asked of it and not answered yet (see lifecycle-fold.ts). */
  shutdownRequest: { readonly messageId: string | null; readonly reason: string | null } | null;
  /** It told the lead it is idle and has not taken a task since: no second notice. */
  idleNotified: boolean;
  /** It left the team (`run.removeMember`); its status is `shutdown`. */
  removed: boolean;
}

/** A message as the run's log tells it. */
export interface MessageRecord {
  readonly id: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly content: string;
  readonly automatic: boolean;
  readonly timestamp: string;
  readonly kind: MessageKind;
  readonly idleReason?: IdleReason | undefined;
}

/**
 * A run as its committed events tell it: the one state the runtime decides from, a resume
 * restores, and the command's view and the Studio show. Built only by `applyEvent`.
 */
export interface RunState {
  runId: string | null;
  team: string;
  input: string;
  /** When its first event was committed (ISO 8601). */
  startedAt: string | null;
  lead: string | null;
  /** The lead first, then the members, as `team:start` names them. */
  readonly agents: Map<string, AgentRunState>;
  /** Every task as its latest event shows it. */
  readonly tasks: Map<string, TeamTask>;
  /** Every message, in commit order. */
  readonly messages: MessageRecord[];
  /** Events that moved the work on (tasks and messages); a stalled turn that adds none did not help. */
  progress: number;
  /** `progress` when the lead's last stalled turn began. */
  progressAtStall: number | null;
  /** The lead's reply to its first turn, once that turn ended. */
  startOutput: string | null;
  /** The member whose turn began last: the next start looks at the members after it first. */
  lastStarted: string | null;
  /** The first agent that failed since the run began or was resumed. */
  failure: { readonly agent: string; readonly error: string } | null;
  /** How the run ended; `null` while it goes (a resume clears it). */
  stopReason: StopReason | null;
  usage: TokenUsage;
  /** The summaries of the current synthesis done in parts, by part (`level.index`). */
  readonly summaries: Map<string, string>;
  /** Requests (open and closed) and path grants: see src/governance. */
  readonly governance: GovernanceState;
  /** The seq of the last event folded in. */
  seq: number;
}

export function emptyRunState(): RunState {
  return {
    runId: null,
    team: '',
    input: '',
    startedAt: null,
    lead: null,
    agents: new Map(),
    tasks: new Map(),
    messages: [],
    progress: 0,
    progressAtStall: null,
    startOutput: null,
    lastStarted: null,
    failure: null,
    stopReason: null,
    usage: NO_USAGE,
    summaries: new Map(),
    governance: emptyGovernance(),
    seq: 0,
  };
}

export function agentOf(state: RunState, name: string, role: AgentRole): AgentRunState {
  let agent = state.agents.get(name);
  if (!agent) {
    agent = {
      name,
      role,
      status: 'idle',
      reason: null,
      taskId: null,
      turns: 0,
      countedTurns: 0,
      usage: NO_USAGE,
      lastOutput: '',
      answered: new Set(),
      synthesis: null,
      shutdownRequest: null,
      idleNotified: false,
      removed: false,
    };
    state.agents.set(name, agent);
  }
  return agent;
}

function turnStarted(state: RunState, data: TeamEventMap['team:member-started']): void {
  const agent = agentOf(state, data.member, data.role);
  agent.status = 'working';
  agent.reason = data.reason;
  agent.taskId = data.taskId;
  agent.turns = data.turn;
  if (data.reason !== 'synthesis') agent.countedTurns++;
  agent.answered.clear();
  if (data.role === 'member') state.lastStarted = data.member;
  if (data.reason === 'stalled') state.progressAtStall = state.progress;
  agent.synthesis = data.synthesis ?? null;
  // A synthesis in parts begins (again, after a resume): the summaries of an earlier one are void.
  if (data.synthesis?.level === 1 && data.synthesis.index === 1) state.summaries.clear();
}

function turnFinished(state: RunState, data: TeamEventMap['team:member-finished']): void {
  const agent = agentOf(state, data.member, data.role);
  agent.status = data.status;
  agent.reason = null;
  agent.taskId = null;
  agent.lastOutput = data.output;
  agent.answered.clear();
  const part = agent.synthesis;
  if (part && !part.final && data.status !== 'failed')
    state.summaries.set(`${part.level}.${part.index}`, data.output);
  agent.synthesis = null;
  if (data.role === 'lead' && data.reason === 'start') state.startOutput = data.output;
  if (data.status === 'failed') state.failure ??= { agent: data.member, error: data.error ?? 'failed' };
}

/** A run picked up again: turns that were cut off are over, and so is its last end. */
function resumed(state: RunState): void {
  for (const agent of state.agents.values()) {
    if (agent.status === 'working') agent.status = 'idle';
    agent.idleNotified = false;
    agent.reason = null;
    agent.taskId = null;
    agent.answered.clear();
    agent.synthesis = null;
  }
  state.failure = null;
  state.stopReason = null;
}

/**
 * Folds one committed event into the run state, in place (the state has one writer: the
 * run's loop, or a viewer's own copy). Deterministic: it reads nothing but its arguments,
 * so the same events always give the same state, live or on resume.
 */
export function applyEvent(state: RunState, event: TeamEvent): void {
  if (event.seq <= state.seq) return; // folded already (a catch-up may see it twice)
  state.seq = event.seq;
  state.runId ??= event.runId;
  state.team = event.team;
  state.startedAt ??= event.timestamp;
  switch (event.type) {
    case 'team:start':
      state.input = event.data.input;
      state.lead = event.data.lead;
      agentOf(state, event.data.lead, 'lead');
      for (const member of event.data.members) agentOf(state, member, 'member');
      break;
    case 'team:resumed':
      resumed(state);
      break;
    case 'team:member-started':
      turnStarted(state, event.data);
      break;
    case 'team:member-finished':
      turnFinished(state, event.data);
      break;
    case 'team:turn-usage': {
      const agent = agentOf(state, event.data.member, event.data.role);
      agent.usage = addUsage(agent.usage, event.data.usage);
      state.usage = addUsage(state.usage, event.data.usage);
      break;
    }
    case 'team:task-claimed': {
      state.progress++;
      state.tasks.set(event.data.task.id, event.data.task);
      const agent = state.agents.get(event.data.member);
      if (agent?.status === 'working') agent.taskId = event.data.task.id;
      if (agent) agent.idleNotified = false;
      break;
    }
    case 'team:task-created':
    case 'team:task-assigned':
    case 'team:task-updated':
    case 'team:task-completed':
      state.progress++;
      state.tasks.set(event.data.task.id, event.data.task);
      break;
    case 'team:message-sent': {
      state.progress++;
      const { id, from, to, content, automatic, idleReason } = event.data;
      const kind = event.data.kind ?? 'text';
      state.messages.push({ id, from, to, content, automatic, timestamp: event.timestamp, kind, idleReason });
      const sender = state.agents.get(from);
      if (sender?.status === 'working') for (const reader of to) sender.answered.add(reader);
      if (sender && kind === 'idle_notification') sender.idleNotified = true;
      break;
    }
    case 'team:complete':
      state.stopReason = event.data.stopReason;
      break;
    // A turn's transcript (and its live text) is for reading: it decides nothing.
    case 'team:turn-prompt':
    case 'team:turn-text':
    case 'team:tool-called':
    case 'team:tool-result':
    case 'team:text-delta':
      break;
    default:
      foldLifecycle(state, event);
  }
  applyGovernanceEvent(state.governance, event);
}

/** The state of a run from its events, in commit order. */
export function foldEvents(events: readonly TeamEvent[]): RunState {
  const state = emptyRunState();
  for (const event of events) applyEvent(state, event);
  return state;
}
