import type { TokenUsage } from '../agent/usage.js';
import type { TaskStatus, TeamTask } from '../board/task.js';
import type { IdleReason, MessageKind } from '../mailbox/message.js';

/** Why an agent takes a turn. */
export type TurnReason = 'start' | 'task' | 'message' | 'stalled' | 'synthesis';
export type AgentRole = 'lead' | 'member';
/** `shutdown`: the member was shut down or removed from the team; it takes no more turns. */
export type MemberStatus = 'idle' | 'working' | 'stopped' | 'failed' | 'shutdown';
/** Why a run ended: the seed's four, `aborted` (by its signal) and `failed` (an agent's turn threw). */
export type StopReason =
  | 'completed'
  | 'no-tasks'
  | 'stalled'
  | 'turn-limit'
  | 'budget'
  | 'aborted'
  | 'failed';

/** A turn's end as a worker reports it: plain data (a thrown error is kept as its message). */
export type ReportedOutcome =
  | {
      readonly kind: 'done';
      readonly text: string;
      readonly usage: TokenUsage;
      readonly model: string;
      readonly delivered: readonly string[];
      readonly unread?: readonly string[];
      /** A hook turned the turn's end down: which, and its feedback. */
      readonly rejected?: {
        readonly hook: 'onTaskCompleted' | 'onTeammateIdle';
        readonly feedback: string;
        readonly taskId: string | null;
      };
    }
  | {
      readonly kind: 'failed';
      readonly error: string;
      readonly delivered: readonly string[];
      readonly unread?: readonly string[];
    };
/**
 * One turn of a synthesis done in parts, when the team's results do not fit in one prompt
 * (`promptBudgetTokens`): level 1 summarises task results, each level after it the summaries
 * of the one before, and the `final` turn writes the answer from the last level's summaries.
 */
export interface SynthesisPart {
  readonly level: number;
  /** Its place in its level, from 1, and how many parts the level has. */
  readonly index: number;
  readonly of: number;
  /** What it reads: task ids (level 1), or the keys (`level.index`) of the summaries it reads. */
  readonly inputs: readonly string[];
  readonly final: boolean;
}
/** What a request asks for (see `team:request-opened`). */
export type RequestKind = 'plan' | 'permission' | 'tool';
/** The file tools a grant covers: one that changes files, or both (`*`). */
export type GrantTool = 'write_file' | 'edit_file' | '*';

/** How many tasks are in each state; `closed` are also counted in `completed`. */
export interface TaskCounts {
  readonly total: number;
  readonly pending: number;
  readonly inProgress: number;
  readonly completed: number;
  readonly closed: number;
}

/**
 * Every event of a team and the data it carries. Task events carry the task as it is
 * after the change. The key is the event's `type`.
 */
export interface TeamEventMap {
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
  };
  /** The tokens (and cost, where priced) of a turn that just ended; before its `team:member-finished`. */
  'team:turn-usage': {
    readonly member: string;
    readonly role: AgentRole;
    readonly turn: number;
    readonly model: string;
    readonly usage: TokenUsage;
  };
  /**
   * How a turn that ran on a worker process ended, written by that worker for the run's loop
   * to close the turn (in-process turns report to the loop directly). Only the attempt that
   * holds the turn's fence can write it.
   */
  'team:turn-outcome': {
    readonly member: string;
    readonly turn: number;
    readonly outcome: ReportedOutcome;
  };
  /**
   * A turn's briefing, as the executor built it (cut to `LIMITS.promptInLog` with a marker):
   * the first event of the turn's transcript.
   */
  'team:turn-prompt': {
    readonly agent: string;
    readonly turn: number;
    readonly reason: TurnReason;
    readonly taskId: string | null;
    readonly prompt: string;
  };
  /**
   * A model call of a turn (a step) wrote text: committed before the step's tool calls.
   * Every step's text is logged (cut to `LIMITS.taskText` with a marker); the final reply is
   * also the `output` of the turn's `team:member-finished`.
   */
  'team:turn-text': {
    readonly agent: string;
    readonly turn: number;
    /** The step of the turn's tool loop, from 0. */
    readonly step: number;
    readonly text: string;
  };
  /**
   * An agent called a tool; committed before the tool runs. `input` is the call's arguments
   * as JSON, cut to `LIMITS.toolText` with a marker.
   */
  'team:tool-called': {
    readonly agent: string;
    readonly turn: number;
    readonly taskId: string | null;
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: string;
  };
  /**
   * A tool call's answer, after the tool ran: its output (a string as it is, anything else as
   * JSON), or with `isError` the error the model was told, cut to `LIMITS.toolText` with a marker.
   */
  'team:tool-result': {
    readonly agent: string;
    readonly turn: number;
    readonly toolCallId: string;
    readonly toolName: string;
    readonly output: string;
    readonly isError: boolean;
  };
  /**
   * Text as the model streams it, live only: emitted to `team.on` and `run.events()` but never
   * written to the run's log (the step's whole text is, as `team:turn-text`). Its `seq` is the
   * one of the last committed event before it: it has no place of its own in the log.
   */
  'team:text-delta': { readonly agent: string; readonly turn: number; readonly delta: string };
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
  /** The person asked a member to shut down (`run.shutdown`); `messageId` is the request it was sent. */
  'team:shutdown-requested': {
    readonly member: string;
    readonly force: boolean;
    readonly reason: string | null;
    readonly messageId: string | null;
  };
  /** A member turned a graceful shutdown down, with its reason; it goes on working. */
  'team:shutdown-rejected': { readonly member: string; readonly reason: string };
  /** A member shut down (`removed`: it also left the team); `requeued` are the tasks it gave back. */
  'team:member-shutdown': {
    readonly member: string;
    readonly force: boolean;
    readonly reason: string | null;
    readonly removed: boolean;
    readonly requeued: readonly string[];
    /** Its unread messages, kept in its inbox (the archive), never delivered to anyone else. */
    readonly archived: readonly string[];
  };
  /** A member joined the team during the run (`run.addMember`). */
  'team:member-joined': {
    readonly member: string;
    readonly description: string;
    readonly model: string;
    readonly mode: string;
  };
  /** A lifecycle hook turned a change down; the feedback went to `agent`. */
  'team:hook-rejected': {
    readonly hook: 'onTaskCreated' | 'onTaskCompleted' | 'onTeammateIdle';
    readonly agent: string;
    readonly taskId: string | null;
    readonly feedback: string;
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
   * Someone is asked to decide: a plan to approve, a permission, or a call of a tool marked
   * `needsApproval`. `from` waits (holding no slot) until it is answered or expires.
   */
  'team:request-opened': {
    readonly requestId: string;
    readonly kind: RequestKind;
    readonly from: string;
    readonly to: 'lead' | 'user';
    /** What is asked, as the one who answers reads it. */
    readonly subject: string;
    /** The task it is asked for, if any. */
    readonly taskId: string | null;
    /** For a permission or tool request: the tool, and the path a file tool acts on. */
    readonly tool: string | null;
    readonly path: string | null;
    /** Expires this long after it opened, into `defaultApprove`. */
    readonly timeoutMs: number;
    readonly defaultApprove: boolean;
  };
  /** A request was answered; the first answer (or expiry) of a request is the one that counts. */
  'team:request-answered': {
    readonly requestId: string;
    readonly approve: boolean;
    readonly feedback: string;
    /** The lead's name, or `user`. */
    readonly by: string;
  };
  /**
   * A request to the lead goes to the person instead: the lead is between turns and can take
   * no more (out of turns), so it would never be answered otherwise.
   */
  'team:request-forwarded': { readonly requestId: string; readonly to: 'user'; readonly reason: string };
  /** Nobody answered a request in time: it closes with its default answer (a plan goes ahead, a permission is denied). */
  'team:request-expired': {
    readonly requestId: string;
    readonly approve: boolean;
    readonly feedback: string;
  };
  /** The lead let a member use a file tool on paths (globs) without asking. */
  'team:paths-granted': {
    readonly member: string;
    readonly paths: readonly string[];
    readonly tool: GrantTool;
    readonly by: string;
  };
  /** The run ended; after everything else of the run. */
  'team:complete': {
    readonly stopReason: StopReason;
    readonly tasks: TaskCounts;
    readonly leadTurns: number;
    readonly memberTurns: number;
    /** What failed, when `stopReason` is `failed`. */
    readonly error: string | null;
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
