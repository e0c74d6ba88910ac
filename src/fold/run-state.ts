import { NO_USAGE, type TokenUsage } from '../agent/usage.js';
import type { TeamTask } from '../board/task.js';
import type {
  AgentRole,
  MemberStatus,
  StopReason,
  SynthesisPart,
  TurnReason,
} from '../events/team-event-map.js';
import type { IdleReason, MessageKind } from '../mailbox/message.js';
import { emptyGovernance, type GovernanceState } from './governance-fold.js';
import type { JoinedMember } from './turn-descriptor.js';

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
  /** It left the team (`run.removeMember`); its status is `removed`. */
  removed: boolean;
  /** A forced shutdown or a removal asked of it: its running turn is cut, then it departs. */
  departing: Departure | null;
  /** How it joined during the run (`team:member-joined`); `null` for an agent of the team's definition. */
  joined: JoinedMember | null;
  /** A question it asked in a turn (a message of kind `question`) that nobody has answered yet. */
  question: OpenQuestion | null;
  /** The turn it last asked a question in: that turn's end leaves its task with it, answered or not. */
  questionTurn: number | null;
  /** Its last question, once it went unanswered past `questionTimeoutMs`: its next turn is told. */
  unanswered: OpenQuestion | null;
  /** What it waits on while its status is `waiting`. */
  waitingOn: WaitingOn | null;
  /**
   * An interrupt asked of it: the turn it cut (`turn`, `null` when none was running) and the
   * message its next turn starts with. Cleared when that next turn starts.
   */
  interrupt: { readonly messageId: string; readonly by: string; readonly turn: number | null } | null;
  /**
   * The turn a crash cut (it was running when the run was resumed): its next turn for the same
   * reason and task replays it under the same number, so effects it made are not made again.
   */
  replay: { readonly turn: number; readonly reason: TurnReason; readonly taskId: string | null } | null;
}

/** A question a member asked: the message, whom it asked, and the turn and task it asked in. */
export interface OpenQuestion {
  readonly messageId: string;
  readonly to: readonly string[];
  readonly content: string;
  /** When it was sent: its commit's time, ms since the epoch. */
  readonly askedAt: number;
  readonly turn: number;
  readonly taskId: string | null;
}

/** What a waiting agent waits on: the answer to its request, or to its question. */
export type WaitingOn =
  | { readonly kind: 'request'; readonly requestId: string }
  | { readonly kind: 'question'; readonly messageId: string; readonly to: readonly string[] };

/** How a member is to depart: at once (`force`), and whether it also leaves the team. */
export interface Departure {
  readonly force: boolean;
  readonly reason: string | null;
  readonly removed: boolean;
}

/** The run's end once decided (`team:run-ending`): the synthesis runs, then `team:complete`. */
interface RunEnding {
  readonly stopReason: StopReason;
  readonly synthesis: 'none' | 'whole' | 'parts';
  /** Every part planned so far (`team:synthesis-planned`), level by level. */
  readonly parts: SynthesisPart[];
  /** The lead's final answer is written (or there is none to write). */
  done: boolean;
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
  /** The first agent that failed since the run began or was resumed (`fatal`: a hook threw). */
  failure: { readonly agent: string; readonly error: string; readonly fatal: boolean } | null;
  /** When the run was last opened (its `team:start` or latest `team:resumed`), ms since the epoch. */
  openedAt: number | null;
  /** A stop asked for from any process (`team:abort-requested`); a resume clears it. */
  abort: { readonly reason: string | null; readonly by: string } | null;
  /** The run's budget bound, once reached (`team:budget-reached` without an agent). */
  budgetReached: { readonly bound: string; readonly limit: number; readonly used: number } | null;
  /** The run's end once decided; a resume keeps it, so a synthesis goes on where it was cut. */
  ending: RunEnding | null;
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
    openedAt: null,
    abort: null,
    budgetReached: null,
    ending: null,
    stopReason: null,
    usage: NO_USAGE,
    summaries: new Map(),
    governance: emptyGovernance(),
    seq: 0,
  };
}

/** Whether the agent has left the run's work for good: shut down or removed. */
export function departed(agent: AgentRunState): boolean {
  return agent.status === 'shutdown' || agent.status === 'removed';
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
      departing: null,
      joined: null,
      question: null,
      questionTurn: null,
      unanswered: null,
      waitingOn: null,
      interrupt: null,
      replay: null,
    };
    state.agents.set(name, agent);
  }
  return agent;
}
