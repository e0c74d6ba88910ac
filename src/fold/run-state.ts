import type { JoinedMember } from '../agent/team-formation.js';
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

/** One agent as its run's events tell it. */
export interface AgentRunState {
  /** The agent's name. */
  readonly name: string;
  /** Whether it leads or is a member. */
  readonly role: AgentRole;
  /** What it is doing now. */
  status: MemberStatus;
  /** Why its current turn runs; `null` between turns. */
  reason: TurnReason | null;
  /** The task its current turn was started with (or the one it claimed in it). */
  taskId: string | null;
  /** Turns taken, every kind included. */
  turns: number;
  /** Turns that count against its bound (for the lead: all but the synthesis). */
  countedTurns: number;
  /** The tokens and cost of its turns so far. */
  usage: TokenUsage;
  /** Its final reply in its last turn that ended. */
  lastOutput: string;
  /** The agents it messaged in its current turn (the harness replies only to the others). */
  readonly answered: Set<string>;
  /** The part of a synthesis done in parts its current turn is, if it is one. */
  synthesis: SynthesisPart | null;
  /** A graceful shutdown asked of it and not answered yet (see lifecycle-fold.ts). */
  shutdownRequest: {
    /** The shutdown request sent to it. */
    readonly messageId: string | null;
    /** Why, as the requester gave it. */
    readonly reason: string | null;
  } | null;
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
  interrupt: {
    /** The message its next turn starts with. */
    readonly messageId: string;
    /** Who interrupted it. */
    readonly by: string;
    /** The turn it cut; `null` when none was running. */
    readonly turn: number | null;
  } | null;
  /**
   * The turn a crash cut (it was running when the run was resumed): its next turn for the same
   * reason and task replays it under the same number, so effects it made are not made again.
   */
  replay: {
    /** The turn's number, which its replay keeps. */
    readonly turn: number;
    /** Why that turn was started. */
    readonly reason: TurnReason;
    /** The task it was started with; `null` when none. */
    readonly taskId: string | null;
  } | null;
  /**
   * When it last did something the log tells (joined, began or ended a turn, called a tool,
   * sent a message, took or changed a task): its commit's time, ms since the epoch.
   */
  lastActiveAt: number | null;
}

/**
 * A question a member asked: the message, whom it asked, and the turn and task it asked in.
 * @inline
 */
export interface OpenQuestion {
  /** The question's message. */
  readonly messageId: string;
  /** Whom it asked. */
  readonly to: readonly string[];
  /** The question's text. */
  readonly content: string;
  /** When it was sent: its commit's time, ms since the epoch. */
  readonly askedAt: number;
  /** The turn it was asked in. */
  readonly turn: number;
  /** The task the member was on; `null` when none. */
  readonly taskId: string | null;
}

/**
 * What a waiting agent waits on: the answer to its request, or to its question.
 * @inline
 */
export type WaitingOn =
  | {
      /** The answer to a request it opened. */
      readonly kind: 'request';
      /** The request. */
      readonly requestId: string;
    }
  | {
      /** The answer to a question it asked. */
      readonly kind: 'question';
      /** The question's message. */
      readonly messageId: string;
      /** Whom it asked. */
      readonly to: readonly string[];
    };

/**
 * How a member is to depart: at once (`force`), and whether it also leaves the team.
 * @inline
 */
export interface Departure {
  /** Whether its running turn is cut. */
  readonly force: boolean;
  /** Why, as the requester gave it; `null` when not given. */
  readonly reason: string | null;
  /** Whether it also leaves the team. */
  readonly removed: boolean;
}

/**
 * The run's end once decided (`team:run-ending`): the synthesis runs, then `team:complete`.
 * @inline
 */
interface RunEnding {
  /** How the run will end. */
  readonly stopReason: StopReason;
  /** How the lead's final answer is made: none, one turn, or in parts. */
  readonly synthesis: 'none' | 'whole' | 'parts';
  /** Every part planned so far (`team:synthesis-planned`), level by level. */
  readonly parts: SynthesisPart[];
  /** The lead's final answer is written (or there is none to write). */
  done: boolean;
}

/** A message as the run's log tells it. */
export interface MessageRecord {
  /** The message's id. */
  readonly id: string;
  /** Its sender: an agent's name, or `user`. */
  readonly from: string;
  /** Every mailbox it reached. */
  readonly to: readonly string[];
  /** Its text. */
  readonly content: string;
  /** True for a reply the harness sent for an agent. */
  readonly automatic: boolean;
  /** When it was sent (ISO 8601). */
  readonly timestamp: string;
  /** What it is. */
  readonly kind: MessageKind;
  /** Why the member went idle: on an `idle_notification` only. */
  readonly idleReason?: IdleReason | undefined;
}

/**
 * A run as its committed events tell it: the one state the runtime decides from, a resume
 * restores, and the command's view and the Studio show. Built only by `applyEvent`.
 */
export interface RunState {
  /** The run's id; `null` before its first event. */
  runId: string | null;
  /** The team's name. */
  team: string;
  /** The request the run was started with. */
  input: string;
  /** When its first event was committed (ISO 8601). */
  startedAt: string | null;
  /** The lead's name; `null` before the run's start. */
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
  failure: {
    /** The agent that failed. */
    readonly agent: string;
    /** What failed. */
    readonly error: string;
    /** True when a lifecycle hook threw (the run fails whatever `errorHandling` says). */
    readonly fatal: boolean;
  } | null;
  /** When the run was last opened (its `team:start` or latest `team:resumed`), ms since the epoch. */
  openedAt: number | null;
  /** A stop asked for from any process (`team:abort-requested`); a resume clears it. */
  abort: {
    /** Why, as the requester gave it; `null` when not given. */
    readonly reason: string | null;
    /** Who asked. */
    readonly by: string;
  } | null;
  /** The run's budget bound, once reached (`team:budget-reached` without an agent). */
  budgetReached: {
    /** Which limit was reached. */
    readonly bound: string;
    /** The limit. */
    readonly limit: number;
    /** What had been used when it was reached. */
    readonly used: number;
  } | null;
  /** The run's end once decided; a resume keeps it, so a synthesis goes on where it was cut. */
  ending: RunEnding | null;
  /** How the run ended; `null` while it goes (a resume clears it). */
  stopReason: StopReason | null;
  /** The tokens and cost of the run so far. */
  usage: TokenUsage;
  /** The summaries of the current synthesis done in parts, by part (`level.index`). */
  readonly summaries: Map<string, string>;
  /** Requests (open and closed) and path grants: see src/governance. */
  readonly governance: GovernanceState;
  /** The seq of the last event folded in. */
  seq: number;
}

/** The state of a run before any event: what `applyEvent` folds the log into. */
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
      lastActiveAt: null,
    };
    state.agents.set(name, agent);
  }
  return agent;
}
