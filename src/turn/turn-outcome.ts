import type { TokenUsage } from '../agent/usage.js';

/** A hook's rejection of how a turn ended, with its feedback for the member. */
export interface HookRejection {
  readonly hook: 'onTaskCompleted' | 'onTeammateIdle';
  readonly feedback: string;
  readonly taskId: string | null;
}

/** How a turn ended, as its executor reports it to the run. Plain data, like the descriptor. */
export type TurnOutcome =
  | {
      readonly kind: 'done';
      /** The agent's final reply. */
      readonly text: string;
      readonly usage: TokenUsage;
      /** The model that answered, as usage events name it. */
      readonly model: string;
      /** Messages `read_inbox` gave the turn besides its briefing's: read once it ends. */
      readonly delivered: readonly string[];
      /** Messages of its descriptor it was never shown (no room in its briefing): they stay unread. */
      readonly unread?: readonly string[];
      /** A hook turned the turn's end down (its completion of its task, or its going idle). */
      readonly rejected?: HookRejection;
    }
  /** The turn threw; `cause` is the thrown error where the turn ran in this process. */
  | {
      readonly kind: 'failed';
      readonly error: string;
      readonly delivered: readonly string[];
      readonly unread?: readonly string[];
      readonly cause?: unknown;
    }
  /** The run was stopping and cut the turn short. */
  | { readonly kind: 'aborted' };

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
