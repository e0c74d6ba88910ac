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
import type { TaskEditField, TaskStatus, TeamTask } from './task.js';
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
export interface TeamEventMap extends TurnEventMap, GovernanceEventMap {
  /** A run begins; before anything else of the run. `input` is the request. */
  'team:start': { readonly lead: string; readonly members: readonly string[]; readonly input: string };
  /** A run that did not finish goes on (after a crash, an abort or a failure); `requeued` tasks were in progress. */
  'team:resumed': { readonly requeued: readonly string[] };
  /** An agent begins a turn. `taskId` is the task it was started with, if any. */
  'team:member-started': {
    readonly member: string;
    readonly role: AgentRole;
    readonly turn: number;
    readonly reason: TurnReason;
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
    readonly member: string;
    readonly role: AgentRole;
    readonly turn: number;
    readonly reason: TurnReason;
    readonly status: MemberStatus;
    readonly output: string;
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
    readonly member: string;
    readonly role: AgentRole;
    readonly turn: number;
    /** The step of the turn's tool loop, from 0. */
    readonly step?: number;
    readonly model: string;
    /** The provider's id of the response, where it gives one (to match its billing). */
    readonly responseId?: string;
    readonly usage: TokenUsage;
  };
  /** A task was put on the list. */
  'team:task-created': { readonly task: TeamTask; readonly by: string };
  /** A pending task was given to a member; `previousOwner` is whom it was given to before. */
  'team:task-assigned': {
    readonly task: TeamTask;
    readonly assignee: string;
    readonly by: string;
    readonly previousOwner: string | null;
  };
  /** A member started a task. */
  'team:task-claimed': { readonly task: TeamTask; readonly member: string };
  /** A release, a note or a lead's change: `from` and `to` are the statuses before and after. */
  'team:task-updated': {
    readonly task: TeamTask;
    readonly by: string;
    readonly from: TaskStatus;
    readonly to: TaskStatus;
  };
  /**
   * A pending task's title, description or dependencies changed (`update_task`, `editTask`, or
   * a deletion dropping a dependency): `addedDependsOn` and `removedDependsOn` say which.
   */
  'team:task-edited': {
    readonly task: TeamTask;
    readonly by: string;
    readonly fields: readonly TaskEditField[];
    readonly addedDependsOn: readonly string[];
    readonly removedDependsOn: readonly string[];
  };
  /**
   * A task was deleted (`delete_task`, `deleteTask`) with a reason; `dependents` are the tasks
   * that waited for it, each no longer does (a `team:task-edited` follows for each).
   */
  'team:task-deleted': {
    readonly task: TeamTask;
    readonly by: string;
    readonly reason: string;
    readonly dependents: readonly string[];
  };
  /** A task was completed (or closed by the lead); `unblocked` are the ids of tasks it freed. */
  'team:task-completed': {
    readonly task: TeamTask;
    readonly by: string;
    readonly unblocked: readonly string[];
  };
  /** A message was delivered; `to` are the mailboxes it reached. */
  'team:message-sent': {
    readonly id: string;
    readonly from: string;
    readonly to: readonly string[];
    readonly broadcast: boolean;
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
    readonly agent: string | null;
    readonly bound: 'maxTokens' | 'maxCostUsd' | 'maxDurationMs';
    readonly limit: number;
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
  'team:abort-requested': { readonly reason: string | null; readonly by: string };
  /**
   * The run's work is over and its end decided: `stopReason` is how it will end, after the
   * lead's final answer (`synthesis`: none, one turn over every result, or parts, each level
   * of them planned by a `team:synthesis-planned`).
   */
  'team:run-ending': { readonly stopReason: StopReason; readonly synthesis: 'none' | 'whole' | 'parts' };
  /** The parts of one level of a synthesis done in parts (`promptBudgetTokens`), in the order they run. */
  'team:synthesis-planned': { readonly parts: readonly SynthesisPart[] };
  /** The run ended; after everything else of the run. */
  'team:complete': {
    readonly stopReason: StopReason;
    readonly tasks: TaskCounts;
    readonly leadTurns: number;
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

export type TeamEventType = keyof TeamEventMap;

/** An event as a rule produces it: its type and data. */
export type TeamEventDraft = {
  [K in TeamEventType]: { readonly type: K; readonly data: TeamEventMap[K] };
}[TeamEventType];

/** An event as listeners and the event log see it. */
export type TeamEvent<K extends TeamEventType = TeamEventType> = {
  [T in K]: {
    readonly type: T;
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
  emit(event: TeamEventDraft): void;
}
