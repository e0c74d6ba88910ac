import type { BoardEventMap } from './board-event-map.js';
import type { GovernanceEventMap } from './governance-event-map.js';
import type { IdleReason, MessageKind } from './message.js';
import type {
  AgentRole,
  MemberStatus,
  StopReason,
  SynthesisPart,
  TaskCounts,
  TurnReason,
} from './run-terms.js';
import type { TurnEventMap } from './turn-event-map.js';
import type { TokenUsage } from './usage.js';

export type { GrantTool, RequestKind } from './governance-event-map.js';
export type {
  AgentRole,
  MemberStatus,
  StopReason,
  SynthesisPart,
  TaskCounts,
  TurnReason,
} from './run-terms.js';
export type { HookRejection, ReportedOutcome } from './turn-event-map.js';

/**
 * Every event of a team and the data it carries. Task events carry the task as it is
 * after the change. The key is the event's `type`.
 */
export interface TeamEventMap extends TurnEventMap, BoardEventMap, GovernanceEventMap {
  /** A run begins; before anything else of the run. `input` is the request. */
  'team:start': {
    /** The lead's name. */
    readonly lead: string;
    /** The members' names, in the team's order. */
    readonly members: readonly string[];
    /** The request the run was started with. */
    readonly input: string;
  };
  /** A run that did not finish goes on (after a crash, an abort or a failure); `requeued` tasks were in progress. */
  'team:resumed': {
    /** The tasks that were in progress and went back to the list. */
    readonly requeued: readonly string[];
  };
  /** An agent begins a turn. `taskId` is the task it was started with, if any. */
  'team:member-started': {
    /** The agent whose turn it is. */
    readonly member: string;
    /** Whether it is the lead or a member. */
    readonly role: AgentRole;
    /** The agent's turn number in the run, from 1. */
    readonly turn: number;
    /** Why the turn was started. */
    readonly reason: TurnReason;
    /** The task the turn was started with; `null` when none. */
    readonly taskId: string | null;
    /** The unread messages the turn was given (marked read when it ends). */
    readonly messageIds: readonly string[];
    /** A synthesis done in parts: which part this turn is. */
    readonly synthesis?: SynthesisPart;
    /** It replays turn `turn`, which a crash cut: what that turn did is not done again. */
    readonly replay?: boolean;
  };
  /** An agent's turn ended; `status` is the agent's status after it. */
  'team:member-finished': {
    /** The agent whose turn ended. */
    readonly member: string;
    /** Whether it is the lead or a member. */
    readonly role: AgentRole;
    /** The agent's turn number in the run, from 1. */
    readonly turn: number;
    /** Why the turn was started. */
    readonly reason: TurnReason;
    /** The agent's status after the turn. */
    readonly status: MemberStatus;
    /** The turn's final text. */
    readonly output: string;
    /** What failed; `null` when the turn succeeded. */
    readonly error: string | null;
    /** The failure fails the run whatever `errorHandling` says (a lifecycle hook threw). */
    readonly fatal?: boolean;
  };
  /**
   * The tokens (and cost, where priced) of one model call of a turn (a step), committed as its
   * response arrives, before the step's tools run: a turn has one for each step that got its
   * answer, whether the turn then ends, fails, is aborted, interrupted, or cut by a crash (a
   * replay of that turn adds its own). The run's and each agent's usage are their sum. Logs
   * written before steps were counted have one per turn that ended, without `step`.
   */
  'team:turn-usage': {
    /** The agent whose call it was. */
    readonly member: string;
    /** Whether it is the lead or a member. */
    readonly role: AgentRole;
    /** The agent's turn number in the run, from 1. */
    readonly turn: number;
    /** The step of the turn's tool loop, from 0. */
    readonly step?: number;
    /** The model that answered, as `provider/model` (the AI SDK's provider and model ids). */
    readonly model: string;
    /** The provider's id of the response, where it gives one (to match its billing). */
    readonly responseId?: string;
    /** The step's tokens and cost. */
    readonly usage: TokenUsage;
  };
  /** A message was delivered; `to` are the mailboxes it reached. */
  'team:message-sent': {
    /** The message's id. */
    readonly id: string;
    /** Its sender. */
    readonly from: string;
    /** The mailboxes it reached. */
    readonly to: readonly string[];
    /** Whether it was sent to every member. */
    readonly broadcast: boolean;
    /** Its text. */
    readonly content: string;
    /** A reply the harness sent for an agent (see `TeamMessage.automatic`). */
    readonly automatic: boolean;
    /** What the message is (`text` unless said otherwise); absent in logs written before kinds. */
    readonly kind?: MessageKind;
    /** Why the member went idle, on an `idle_notification`. */
    readonly idleReason?: IdleReason | undefined;
  };
  /**
   * A budget was reached: the run's (no new turn starts; the run ends with `budget` after its
   * synthesis), or one agent's (`agent`: it stops, its tasks go back to the list).
   */
  'team:budget-reached': {
    /** The agent whose budget it is; `null` for the run's. */
    readonly agent: string | null;
    /** Which limit was reached. */
    readonly bound: 'maxTokens' | 'maxCostUsd' | 'maxDurationMs';
    /** The limit, in the bound's unit (tokens, US dollars, ms). */
    readonly limit: number;
    /** What had been used when it was reached, in the same unit. */
    readonly used: number;
  };
  /**
   * The store could not be reached (a PostgreSQL server restarting, failing over, cut off):
   * the run waits for it, up to `waitMs`, then ends with the error `store-unavailable` (and
   * `resume` continues it). Sent live as the outage begins (`ended: null`; the log is out of
   * reach then); logged with the run's next commit once it is over, `ended` set.
   */
  'team:store-outage': {
    /** When the run's calls first failed to reach the store (ISO 8601). */
    readonly began: string;
    /** What the last call that failed was told. */
    readonly error: string;
    /** How long the run waits for the store in all, in ms (the team's `storeOutageMs`). */
    readonly waitMs: number;
    /** When the store answered again (ISO 8601); `null` while the outage lasts. */
    readonly ended: string | null;
  };
  /** Someone asked the run to stop (`run.abort`, `agent-teams abort`, the Studio): running turns are cut, it ends `aborted`. */
  'team:abort-requested': {
    /** Why, as the requester gave it; `null` when not given. */
    readonly reason: string | null;
    /** Who asked. */
    readonly by: string;
  };
  /**
   * The run's work is over and its end decided: `stopReason` is how it will end, after the
   * lead's final answer (`synthesis`: none, one turn over every result, or parts, each level
   * of them planned by a `team:synthesis-planned`).
   */
  'team:run-ending': {
    /** How the run will end. */
    readonly stopReason: StopReason;
    /** How the lead's final answer is made. */
    readonly synthesis: 'none' | 'whole' | 'parts';
  };
  /** The parts of one level of a synthesis done in parts (`promptBudgetTokens`), in the order they run. */
  'team:synthesis-planned': {
    /** The parts, in the order they run. */
    readonly parts: readonly SynthesisPart[];
  };
  /** The run ended; after everything else of the run. */
  'team:complete': {
    /** How the run ended. */
    readonly stopReason: StopReason;
    /** How many tasks ended in each status. */
    readonly tasks: TaskCounts;
    /** The lead's turns in the run. */
    readonly leadTurns: number;
    /** The members' turns in the run, all together. */
    readonly memberTurns: number;
    /** What failed, when `stopReason` is `failed`. */
    readonly error: string | null;
    /**
     * The final answer, as `result.output` has it: the lead's synthesis (or the tasks' results
     * without one); empty when the run stopped (aborted, failed). Absent in logs written before
     * the answer was logged.
     */
    readonly output?: string;
  };
}

/** The type of any team event: a key of {@link TeamEventMap}. */
export type TeamEventType = keyof TeamEventMap;

/** An event as a rule produces it: its type and data. */
export type TeamEventDraft = {
  [K in TeamEventType]: {
    /** The event's type. */
    readonly type: K;
    /** What it carries. */
    readonly data: TeamEventMap[K];
  };
}[TeamEventType];

/** An event as listeners and the event log see it. */
export type TeamEvent<K extends TeamEventType = TeamEventType> = {
  [T in K]: {
    /** The event's type. */
    readonly type: T;
    /** What it carries. */
    readonly data: TeamEventMap[T];
    /** ISO 8601 time of the commit that made it. */
    readonly timestamp: string;
    /** The team it happened in. */
    readonly team: string;
    /** The run it belongs to; `null` for changes made outside a run. */
    readonly runId: string | null;
    /** Its place in the team's log since the run began, from 1. */
    readonly seq: number;
  };
}[K];

/** Where the rules put the events they cause. */
export interface TeamEventSink {
  /** Records one event. */
  emit(event: TeamEventDraft): void;
}
