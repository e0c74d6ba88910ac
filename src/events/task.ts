/**
 * The statuses of a task: those of `write_todos`, and `deleted` (taken off the plan with a
 * reason; kept in the log and the views, never worked on, not open work).
 */
export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'deleted';

/**
 * A task on a team's list. Tasks are immutable values: every change makes a new one,
 * so a task handed out (in an event, from `getTask`) never changes under its reader.
 */
export interface TeamTask {
  /** Its id, unique in the team (`task-N` unless chosen). */
  readonly id: string;
  /** A short name for the work. */
  readonly title: string;
  /** What is to be done; empty when not given. */
  readonly description: string;
  /** Where it is in its life. */
  readonly status: TaskStatus;
  /** The member working on it (in progress) or that completed it; `null` while pending. */
  readonly owner: string | null;
  /** The member it is given to; only that member may claim it. */
  readonly assignee: string | null;
  /** Tasks that must be completed (or closed) before this one can be claimed. */
  readonly dependsOn: readonly string[];
  /** What the member reported on completing it; `null` before. */
  readonly result: string | null;
  /** A note on the task; on a deleted task, the reason it was deleted. */
  readonly note: string | null;
  /** True when the lead closed it as no longer needed: it counts as done, but nobody did it. */
  readonly closed: boolean;
  /** Who put it on the list. */
  readonly createdBy: string;
  /** ISO 8601 timestamps. */
  readonly createdAt: string;
  /** When it last changed (ISO 8601). */
  readonly updatedAt: string;
}

/** What `createTask` takes. */
export interface NewTask {
  /** A short name for the work. */
  title: string;
  /** What is to be done. */
  description?: string;
  /** Ids of tasks that must be completed first. */
  dependsOn?: readonly string[];
  /** The member to give it to; left out, any member may claim it (unless the team turned `selfClaim` off). */
  assignee?: string;
  /** A task id of your choice; `task-N` (the next free N) when left out. */
  id?: string;
}

/**
 * What `updateTask` takes: complete (with a result), release (`pending`), or note; or, in a
 * change of their own, dependencies to add or remove (see `TaskEdit`).
 */
export interface TaskChange {
  /** `completed` to complete it (with `result`), `pending` to release it. */
  status?: 'completed' | 'pending';
  /** What was done, when completing it. */
  result?: string;
  /** A note to keep on the task. */
  note?: string;
  /** Ids of tasks this one must wait for from now on. */
  addDependsOn?: readonly string[];
  /** Ids of tasks this one no longer waits for. */
  removeDependsOn?: readonly string[];
}

/** What `editTask` takes: a pending task's new title or description, and dependencies to add or remove. */
export interface TaskEdit {
  /** Its new title. */
  title?: string;
  /** Its new description. */
  description?: string;
  /** Ids of tasks it must wait for from now on. */
  addDependsOn?: readonly string[];
  /** Ids of tasks it no longer waits for. */
  removeDependsOn?: readonly string[];
}

/** The fields of a task an edit changes. */
export type TaskEditField = 'title' | 'description' | 'dependsOn';
