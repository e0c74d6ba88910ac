import type { TeamTask } from './task.js';
import { dependentsOf, findTask, type TaskListState } from './task-list-state.js';
import { compareIds } from './task-order.js';

function isFinished(state: TaskListState, id: string): boolean {
  return findTask(state, id)?.status === 'completed';
}

/** The ids of the tasks `task` still waits for, in its `dependsOn` order. */
export function blockersOf(state: TaskListState, task: TeamTask): string[] {
  return task.dependsOn.filter((id) => !isFinished(state, id));
}

/**
 * The pending tasks that wait for `id` and for nothing else: those its completion frees, in
 * id order. Only the tasks that depend on `id` are looked at (the list's index knows them).
 */
export function freedBy(state: TaskListState, id: string): string[] {
  const freed: string[] = [];
  for (const dependent of dependentsOf(state, id)) {
    const task = findTask(state, dependent);
    if (task?.status !== 'pending') continue;
    if (task.dependsOn.every((dep) => dep === id || isFinished(state, dep))) freed.push(task.id);
  }
  return freed.sort(compareIds);
}

/**
 * The unfinished tasks (pending or in progress) that wait for `task`, in id order, while it is
 * unfinished itself: what its completion (or deletion) would let go on.
 */
export function blocks(state: TaskListState, task: TeamTask): string[] {
  if (task.status === 'completed' || task.status === 'deleted') return [];
  return dependentsOf(state, task.id)
    .filter((id) => {
      const status = findTask(state, id)?.status;
      return status === 'pending' || status === 'in_progress';
    })
    .sort(compareIds);
}
