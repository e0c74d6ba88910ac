import type { TurnReason } from './run-terms.js';

/** A hook's rejection of how a turn ended, with its feedback for the member. */
export interface HookRejection {
  /** The hook that turned it down. */
  readonly hook: 'onTaskCompleted' | 'onTeammateIdle';
  /** What the hook said, as the member reads it. */
  readonly feedback: string;
  /** The task concerned; `null` when none. */
  readonly taskId: string | null;
}

/**
 * How a turn ended, as plain data: what an executor reports to the run (and a worker writes
 * to the log as `team:turn-outcome`). A turn that was aborted reports nothing.
 * @inline
 */
export type ReportedOutcome =
  | {
      /** The turn ended with a reply. */
      readonly kind: 'done';
      /** The agent's final reply. */
      readonly text: string;
      /** Messages `read_inbox` gave the turn besides its briefing's: read once it ends. */
      readonly delivered: readonly string[];
      /** Messages of its descriptor it was never shown (no room in its briefing): they stay unread. */
      readonly unread?: readonly string[];
      /** A hook turned the turn's end down (its completion of its task, or its going idle). */
      readonly rejected?: HookRejection;
    }
  /** The turn threw; `error` is what it threw, as text. */
  | {
      /** The turn threw. */
      readonly kind: 'failed';
      /** What it threw, as text. */
      readonly error: string;
      /** Messages `read_inbox` gave the turn besides its briefing's: read once it ends. */
      readonly delivered: readonly string[];
      /** Messages of its descriptor it was never shown: they stay unread. */
      readonly unread?: readonly string[];
      /** A lifecycle hook threw: the run fails whatever `errorHandling` says. */
      readonly fatal?: boolean;
    };

/** What a turn tells of itself: its transcript, its live text, and its end on a worker. */
export interface TurnEventMap {
  /**
   * Something the run depends on failed and is tried again (pg-boss, which queues turns on
   * workers, lost its connection or a poll failed): reported, never swallowed.
   */
  'team:error': {
    /** What failed. */
    readonly source: 'pg-boss';
    /** Its error message. */
    readonly message: string;
  };
  /**
   * How a turn that ran on a worker process ended, written by that worker for the run's loop
   * to close the turn (in-process turns report to the loop directly). Only the attempt that
   * holds the turn's fence can write it.
   */
  'team:turn-outcome': {
    /** The agent whose turn it was. */
    readonly member: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** How the turn ended. */
    readonly outcome: ReportedOutcome;
  };
  /**
   * A turn's briefing, as the executor built it (cut to `LIMITS.promptInLog` with a marker):
   * the first event of the turn's transcript.
   */
  'team:turn-prompt': {
    /** The agent whose turn it is. */
    readonly agent: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** Why the turn was started. */
    readonly reason: TurnReason;
    /** The task the turn was started with; `null` when none. */
    readonly taskId: string | null;
    /** The briefing's text. */
    readonly prompt: string;
    /** Given mid-turn, before this step (messages that came while the turn ran); absent for the briefing. */
    readonly step?: number;
    /** The messages given mid-turn (read when the turn ends, like those it started with). */
    readonly messageIds?: readonly string[];
  };
  /**
   * A model call of a turn (a step) wrote text: committed before the step's tool calls.
   * Every step's text is logged (cut to `LIMITS.taskText` with a marker); the final reply is
   * also the `output` of the turn's `team:member-finished`.
   */
  'team:turn-text': {
    /** The agent whose turn it is. */
    readonly agent: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** The step of the turn's tool loop, from 0. */
    readonly step: number;
    /** The step's text. */
    readonly text: string;
  };
  /**
   * An agent called a tool; committed before the tool runs. `input` is the call's arguments
   * as JSON, cut to `LIMITS.toolText` with a marker.
   */
  'team:tool-called': {
    /** The agent that called it. */
    readonly agent: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** The task the agent was on; `null` when none. */
    readonly taskId: string | null;
    /** The call's id, which its `team:tool-result` repeats. */
    readonly toolCallId: string;
    /** The tool's name. */
    readonly toolName: string;
    /** The call's arguments, as JSON. */
    readonly input: string;
  };
  /**
   * A tool call's answer, after the tool ran: its output (a string as it is, anything else as
   * JSON), or with `isError` the error the model was told, cut to `LIMITS.toolText` with a marker.
   */
  'team:tool-result': {
    /** The agent that called it. */
    readonly agent: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** The call's id, as in its `team:tool-called`. */
    readonly toolCallId: string;
    /** The tool's name. */
    readonly toolName: string;
    /** What the tool answered, or the error. */
    readonly output: string;
    /** Whether the call failed. */
    readonly isError: boolean;
  };
  /**
   * Text as the model streams it, live only: emitted to `team.on` and `run.events()` but never
   * written to the run's log (the step's whole text is, as `team:turn-text`). Its `seq` is the
   * one of the last committed event before it: it has no place of its own in the log.
   */
  'team:text-delta': {
    /** The agent whose turn it is. */
    readonly agent: string;
    /** The agent's turn number. */
    readonly turn: number;
    /** The text streamed since the last delta. */
    readonly delta: string;
  };
}
