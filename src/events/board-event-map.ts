import type { TaskEditField, TaskStatus, TeamTask } from './task.js';

/**
 * The task list's events: each carries the task as it is after the change. Part of
 * `TeamEventMap`.
 */
export interface BoardEventMap {
  /** A task was put on the list. */
  'team:task-created': {
    /** The task as created. */
    readonly task: TeamTask;
    /** Who created it. */
    readonly by: string;
  };
  /** A pending task was given to a member; `previousOwner` is whom it was given to before. */
  'team:task-assigned': {
    /** The task after the assignment. */
    readonly task: TeamTask;
    /** The member it is given to. */
    readonly assignee: string;
    /** Who assigned it. */
    readonly by: string;
    /** Whom it was given to before; `null` when no one. */
    readonly previousOwner: string | null;
  };
  /** A member started a task. */
  'team:task-claimed': {
    /** The task after the claim. */
    readonly task: TeamTask;
    /** The member who started it. */
    readonly member: string;
  };
  /** A release, a note or a lead's change: `from` and `to` are the statuses before and after. */
  'team:task-updated': {
    /** The task after the change. */
    readonly task: TeamTask;
    /** Who changed it. */
    readonly by: string;
    /** Its status before. */
    readonly from: TaskStatus;
    /** Its status after. */
    readonly to: TaskStatus;
  };
  /**
   * A pending task's title, description or dependencies changed (`update_task`, `editTask`, or
   * a deletion dropping a dependency): `addedDependsOn` and `removedDependsOn` say which.
   */
  'team:task-edited': {
    /** The task after the edit. */
    readonly task: TeamTask;
    /** Who edited it. */
    readonly by: string;
    /** Which fields changed. */
    readonly fields: readonly TaskEditField[];
    /** Dependencies the edit added. */
    readonly addedDependsOn: readonly string[];
    /** Dependencies the edit removed. */
    readonly removedDependsOn: readonly string[];
  };
  /**
   * A task was deleted (`delete_task`, `deleteTask`) with a reason; `dependents` are the tasks
   * that waited for it, each no longer does (a `team:task-edited` follows for each).
   */
  'team:task-deleted': {
    /** The task as it was when deleted. */
    readonly task: TeamTask;
    /** Who deleted it. */
    readonly by: string;
    /** Why, as the deleter gave it. */
    readonly reason: string;
    /** The tasks that depended on it. */
    readonly dependents: readonly string[];
  };
  /** A task was completed (or closed by the lead); `unblocked` are the ids of tasks it freed. */
  'team:task-completed': {
    /** The task after completion. */
    readonly task: TeamTask;
    /** Who completed or closed it. */
    readonly by: string;
    /** The ids of the tasks it freed. */
    readonly unblocked: readonly string[];
  };
}
