import { checkActor, USER } from '../agent/participants.js';
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

/** Completed and deleted are final: nothing changes a completed (or closed) or a deleted task. */
export function refuseFinal(task: TeamTask): void {
  if (task.status === 'completed') {
    throw new TeamError('task-completed', `The task ${task.id} is completed; completed tasks are final.`, {
      details: { taskId: task.id },
    });
  }
  if (task.status === 'deleted') {
    throw new TeamError(
      'task-deleted',
      `The task ${task.id} was deleted (${task.note ?? 'no reason given'}); deleted tasks are final.`,
      { details: { taskId: task.id } },
    );
  }
}

/** Throws `unknown-agent` unless `by` is on the team or is the person running it (`user`). */
export function checkBoardActor(state: TaskListState, by: string): void {
  if (by !== USER) checkActor(state.roster, by);
}

/** Whether `by` plans as the lead does: the lead itself, or the person running the team (`user`). */
export function plansAsLead(state: TaskListState, by: string): boolean {
  return by === state.roster.lead || by === USER;
}

/**
 * Only the lead, the person and the task's creator change its shape (its text, its
 * dependencies) or delete it: `not-owner` naming who may.
 */
export function requireShaper(state: TaskListState, task: TeamTask, by: string, doing: string): void {
  if (plansAsLead(state, by) || task.createdBy === by) return;
  const who = plansAsLead(state, task.createdBy)
    ? 'the lead and the person running the team'
    : `the lead, the person running the team and ${task.createdBy}, who created it,`;
  throw new TeamError('not-owner', `Only ${who} can ${doing} ${task.id}; ask the lead.`, {
    details: { taskId: task.id, agent: by },
  });
}

/** The task the member works on now, if any. */
export function heldBy(state: TaskListState, member: string): TeamTask | undefined {
  return heldTask(state, member);
}
