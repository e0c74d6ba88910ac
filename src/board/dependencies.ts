import type { TeamTask } from './task.js';
import { findTask, type TaskListState } from './task-list-state.js';

function isFinished(state: TaskListState, id: string): boolean {
  return findTask(state, id)?.status === 'completed';
}

/** The ids of the tasks `task` still waits for, in its `dependsOn` order. */
export function blockersOf(state: TaskListState, task: TeamTask): string[] {
  return task.dependsOn.filter((id) => !isFinished(state, id));
}

export function isBlocked(state: TaskListState, task: TeamTask): boolean {
  return task.dependsOn.some((id) => !isFinished(state, id));
}

/** The pending tasks that wait for `id` and for nothing else: those its completion frees. */
export function freedBy(state: TaskListState, id: string): string[] {
  const freed: string[] = [];
  for (const task of state.tasks) {
    if (task.status !== 'pending' || !task.dependsOn.includes(id)) continue;
    if (task.dependsOn.every((dep) => dep === id || isFinished(state, dep))) freed.push(task.id);
  }
  return freed;
}
