/**
 * Every refusal of the rules, every bad input and every store failure is a `TeamError`.
 * The `code` is stable (programs branch on it); the `message` is written for the reader
 * (a person or a model) and says what to do next.
 */
export type TeamErrorCode =
  // names, input and options
  /** A name (of a team, an agent or a task id) that is empty, reserved or badly formed. */
  | 'invalid-name'
  /** An argument of a call that is missing, of the wrong type or out of bounds. */
  | 'invalid-input'
  /** An options object (of a Team, an Agent, a store, a run, a worker) with a bad or unknown key. */
  | 'invalid-option'
  /** A blackboard or message bus created disabled was used. */
  | 'disabled'
  /** A feature needs a package the project has not installed (pg, pg-boss). */
  | 'missing-peer-dependency'
  // roster
  /** An agent that is not on the team acted. */
  | 'unknown-agent'
  /** A name that is not one of the team's members, or the lead doing what only members do. */
  | 'not-a-member'
  /** A message to no agent of the team, or to its own sender. */
  | 'unknown-recipient'
  /** A message to an inbox that holds its most unread messages. */
  | 'inbox-full'
  /** A message to (or an act of) a member that shut down or left the team. */
  | 'member-shutdown'
  /** A member would join past the team's `maxMembers` (members at once). */
  | 'member-limit'
  /** `spawn_member` named a definition the team's `catalog` does not have. */
  | 'unknown-definition'
  /** `spawn_member` named a model the team's `spawnModels` does not allow. */
  | 'model-not-allowed'
  // task list
  /** A task id that is not on the list. */
  | 'task-not-found'
  /** A task created with an id already on the list. */
  | 'task-id-taken'
  /** A task past the list's `maxTasks`. */
  | 'task-limit'
  /** A dependency on a task that is not on the list. */
  | 'dependency-not-found'
  /** A claim of a task whose dependencies are not all completed. */
  | 'dependency-unfinished'
  /** A dependency that would make tasks wait for each other in a circle. */
  | 'dependency-cycle'
  /** A change of a task by an agent that neither holds it nor leads, or an assignment by a member. */
  | 'not-owner'
  /** A claim of a task assigned to someone else (or, without `selfClaim`, to no one). */
  | 'not-assigned'
  /** A claim by a member that is working on another task. */
  | 'holds-another-task'
  /** A change that needs the task pending while a member works on it. */
  | 'task-in-progress'
  /** A change of a completed task: completed tasks are final. */
  | 'task-completed'
  /** The task was deleted: it takes no change, and nothing may depend on it. */
  | 'task-deleted'
  /** A completion without a result. */
  | 'result-required'
  // requests (plan approvals, permissions, tool approvals)
  /** A request id that is not in the run. */
  | 'request-not-found'
  /** An answer to a request already answered or expired. */
  | 'request-closed'
  // models and agents
  /** A `provider/model` whose provider is not one the package knows. */
  | 'unknown-provider'
  /** A model whose provider's API key is not set in the environment. */
  | 'missing-api-key'
  /** A run ended `failed` because an agent's turn failed; `details.result` holds the run's result so far. */
  | 'agent-failed'
  /** A turn ran past its `turnTimeoutMs` and was stopped. */
  | 'turn-timeout'
  /** A running turn was cut: its run was aborted, or its member interrupted or shut down at once. */
  | 'aborted'
  // workers: a write from a turn attempt that no longer holds its turn
  /** A write from a worker's attempt at a turn that no longer holds the turn: the run moved on without it. */
  | 'stale-turn'
  /** A lifecycle hook threw, or answered something other than a feedback string or nothing. */
  | 'hook-failed'
  /** A team's hook (`onTaskCreated`) rejected the person's change: the message carries its feedback. */
  | 'hook-rejected'
  /**
   * The person added a task to a team whose `onTaskCreated` hook judges every new task, from
   * where the hook is not at hand (no team file given): nothing was added.
   */
  | 'hook-missing'
  // runs
  /** The run has ended: it takes no more control (abort, shutdown, roster changes, answers). */
  | 'run-ended'
  /** No live process runs the run (it was interrupted): resume it first. */
  | 'not-live'
  /** A resume was asked with another input than the run was started with. */
  | 'resume-mismatch'
  // stores
  /** A team name the store does not know. */
  | 'team-not-found'
  /** A change refused while the team's current run is live (in this process or another). */
  | 'team-busy'
  /** A store file that cannot be read as what it should hold. */
  | 'corrupt-file'
  /** A team's lock held by another process for longer than the lock's timeout. */
  | 'store-locked'
  /** A store file or folder that could not be read or written. */
  | 'store-io'
  /** The store could not be reached for as long as the caller waits (a run: `storeOutageMs`); resume once it answers. */
  | 'store-unavailable'
  /** A call on a store after its `close()`. */
  | 'store-closed';

/** The error of agent-teams: a stable `code` for programs, a `message` for the reader. */
export class TeamError extends Error {
  /** Always `TeamError`. */
  override readonly name = 'TeamError';
  /** What went wrong, stable across versions: branch on it. */
  readonly code: TeamErrorCode;
  /** What the error is about (the task, agent, team or file), for programs; `undefined` when nothing more. */
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
