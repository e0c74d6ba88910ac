import { shown } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { MAX_NAME_LENGTH } from '../errors/names.js';
import type { TeamTask } from './task.js';
import { findTask, heldTask, type TaskListState } from './task-list-state.js';

/** `task-not-found` naming the id (cut if it is longer than any id can be). */
export function taskNotFound(id: unknown): TeamError {
  const named = typeof id === 'string' && id.length <= MAX_NAME_LENGTH ? id : shown(id);
  return new TeamError('task-not-found', `There is no task ${named} on the list; list_tasks shows the ids.`, {
    details: { taskId: id },
  });
}

/** The task with this id, or `task-not-found` naming the id. */
export function requireTask(state: TaskListState, id: unknown): TeamTask {
  const task = typeof id === 'string' ? findTask(state, id) : undefined;
  if (!task) throw taskNotFound(id);
  return task;
}

/** Completed is final: nothing changes a completed (or closed) task. */
export function refuseCompleted(task: TeamTask): void {
  if (task.status === 'completed') {
    throw new TeamError('task-completed', `The task ${task.id} is completed; completed tasks are final.`, {
      details: { taskId: task.id },
    });
  }
}

/** The task the member works on now, if any. */
export function heldBy(state: TaskListState, member: string): TeamTask | undefined {
  return heldTask(state, member);
}
