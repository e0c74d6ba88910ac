// The board's routes of the API (see docs/guide/studio.md): the person's task edits of a going run.

import type { TeamTask } from '../../board/task.js';
import { call } from './api.js';

/** A task the page adds: `create_task`'s fields. */
export interface NewTaskFields {
  title: string;
  description?: string;
  dependsOn?: string[];
  assignee?: string;
}

/** What the page changes of a pending task. */
export interface TaskEditFields {
  title?: string;
  description?: string;
  addDependsOn?: string[];
  removeDependsOn?: string[];
  /** `null`: nobody, the task goes back to the list. */
  assignee?: string | null;
}

const tasksOf = (runId: string) => `api/runs/${encodeURIComponent(runId)}/tasks`;

export const addTask = (runId: string, task: NewTaskFields) =>
  call<{ task: TeamTask }>('POST', tasksOf(runId), task);
export const editTask = (runId: string, taskId: string, edit: TaskEditFields) =>
  call<{ task: TeamTask }>('PATCH', `${tasksOf(runId)}/${encodeURIComponent(taskId)}`, edit);
export const deleteTask = (runId: string, taskId: string, reason: string) =>
  call<{ task: TeamTask }>('DELETE', `${tasksOf(runId)}/${encodeURIComponent(taskId)}`, { reason });
