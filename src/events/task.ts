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
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly status: TaskStatus;
  /** The member working on it (in progress) or that completed it; `null` while pending. */
  readonly owner: string | null;
  /** The member it is given to; only that member may claim it. */
  readonly assignee: string | null;
  /** Tasks that must be completed (or closed) before this one can be claimed. */
  readonly dependsOn: readonly string[];
  readonly result: string | null;
  /** A note on the task; on a deleted task, the reason it was deleted. */
  readonly note: string | null;
  /** True when the lead closed it as no longer needed: it counts as done, but nobody did it. */
  readonly closed: boolean;
  readonly createdBy: string;
  /** ISO 8601 timestamps. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What `createTask` takes. */
export interface NewTask {
  title: string;
  description?: string;
  dependsOn?: readonly string[];
  assignee?: string;
  /** A task id of your choice; `task-N` (the next free N) when left out. */
  id?: string;
}

/**
 * What `updateTask` takes: complete (with a result), release (`pending`), or note; or, in a
 * change of their own, dependencies to add or remove (see `TaskEdit`).
 */
export interface TaskChange {
  status?: 'completed' | 'pending';
  result?: string;
  note?: string;
  /** Ids of tasks this one must wait for from now on. */
  addDependsOn?: readonly string[];
  /** Ids of tasks this one no longer waits for. */
  removeDependsOn?: readonly string[];
}

/** What `editTask` takes: a pending task's new title or description, and dependencies to add or remove. */
export interface TaskEdit {
  title?: string;
  description?: string;
  addDependsOn?: readonly string[];
  removeDependsOn?: readonly string[];
}

/** The fields of a task an edit changes. */
export type TaskEditField = 'title' | 'description' | 'dependsOn';
