import type { HookRejection, ReportedOutcome } from '../events/team-event-map.js';

export type { HookRejection };

/**
 * How a turn ended, as its executor reports it to the run: a reported outcome (plain data,
 * like the descriptor); a failure carries the thrown error as `cause` where the turn ran in
 * this process; `aborted` when the run was stopping and cut the turn short.
 */
export type TurnOutcome =
  | Extract<
      ReportedOutcome,
      {
        /** The turn ended with a reply. */
        kind: 'done';
      }
    >
  | (Extract<
      ReportedOutcome,
      {
        /** The turn threw. */
        kind: 'failed';
      }
    > & {
      /** What the turn threw, where it ran in this process. */
      readonly cause?: unknown;
    })
  | {
      /** The run was stopping and cut the turn short. */
      readonly kind: 'aborted';
    };

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
