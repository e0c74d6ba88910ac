import type { TeamTask } from '../events/task.js';

export type { NewTask, TaskChange, TaskEdit, TaskEditField, TaskStatus, TeamTask } from '../events/task.js';

/**
 * A task as an immutable value, its fields always in one order: every task then has the
 * same shape, which keeps scans over long lists fast whether a task was made here or read
 * from a store.
 */
export function freezeTask(task: TeamTask): TeamTask {
  return Object.freeze({
    id: task.id,
    title: task.title,
    description: task.description,
    status: task.status,
    owner: task.owner,
    assignee: task.assignee,
    dependsOn: Object.freeze([...task.dependsOn]),
    result: task.result,
    note: task.note,
    closed: task.closed,
    createdBy: task.createdBy,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  });
}
