/**
 * Every refusal of the rules, every bad input and every store failure is a `TeamError`.
 * The `code` is stable (programs branch on it); the `message` is written for the reader
 * (a person or a model) and says what to do next.
 */
export type TeamErrorCode =
  // names, input and options
  | 'invalid-name'
  | 'invalid-input'
  /** An options object (of a Team, an Agent, a store, a run, a worker) with a bad or unknown key. */
  | 'invalid-option'
  | 'disabled'
  /** A feature needs a package the project has not installed (pg, pg-boss). */
  | 'missing-peer-dependency'
  // roster
  | 'unknown-agent'
  | 'not-a-member'
  | 'unknown-recipient'
  | 'inbox-full'
  | 'member-shutdown'
  /** A member would join past the team's `maxMembers` (members at once). */
  | 'member-limit'
  /** `spawn_member` named a definition the team's `catalog` does not have. */
  | 'unknown-definition'
  /** `spawn_member` named a model the team's `spawnModels` does not allow. */
  | 'model-not-allowed'
  // task list
  | 'task-not-found'
  | 'task-id-taken'
  | 'task-limit'
  | 'dependency-not-found'
  | 'dependency-unfinished'
  /** A dependency that would make tasks wait for each other in a circle. */
  | 'dependency-cycle'
  | 'not-owner'
  | 'not-assigned'
  | 'holds-another-task'
  | 'task-in-progress'
  | 'task-completed'
  /** The task was deleted: it takes no change, and nothing may depend on it. */
  | 'task-deleted'
  | 'result-required'
  // requests (plan approvals, permissions, tool approvals)
  | 'request-not-found'
  | 'request-closed'
  // models and agents
  | 'unknown-provider'
  | 'missing-api-key'
  | 'agent-failed'
  | 'turn-timeout'
  | 'aborted'
  // workers: a write from a turn attempt that no longer holds its turn
  | 'stale-turn'
  | 'hook-failed'
  /** A team's hook (`onTaskCreated`) rejected the person's change: the message carries its feedback. */
  | 'hook-rejected'
  // runs
  /** The run has ended: it takes no more control (abort, shutdown, roster changes, answers). */
  | 'run-ended'
  /** No live process runs the run (it was interrupted): resume it first. */
  | 'not-live'
  /** A resume was asked with another input than the run was started with. */
  | 'resume-mismatch'
  | 'run-not-found'
  // stores
  | 'team-not-found'
  | 'team-busy'
  | 'corrupt-file'
  | 'store-locked'
  | 'store-io'
  /** The store could not be reached for as long as the caller waits (a run: `storeOutageMs`); resume once it answers. */
  | 'store-unavailable'
  /** A call on a store after its `close()`. */
  | 'store-closed';

export class TeamError extends Error {
  override readonly name = 'TeamError';
  readonly code: TeamErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: TeamErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** True for a `TeamError`, optionally of one code. */
export function isTeamError(error: unknown, code?: TeamErrorCode): error is TeamError {
  return error instanceof TeamError && (code === undefined || error.code === code);
}
