import { TeamError } from '../errors/index.js';
import { freedBy } from './dependencies.js';
import { editTask } from './edit.js';
import { freezeTask, type TaskChange, type TeamTask } from './task.js';
import { checkTaskChange } from './task-input.js';
import type { TaskListState } from './task-list-state.js';
import { checkBoardActor, plansAsLead, refuseFinal, requireTask } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

function refuseStranger(task: TeamTask, by: string): never {
  if (task.status === 'in_progress') {
    throw new TeamError(
      'not-owner',
      `The task ${task.id} is in progress with ${task.owner}; only ${task.owner} and the lead can change it.`,
      { details: { taskId: task.id, owner: task.owner, agent: by } },
    );
  }
  throw new TeamError('not-owner', `The task ${task.id} is not yours: claim it first, or ask the lead.`, {
    details: { taskId: task.id, agent: by },
  });
}

function completed(state: TaskListState, task: TeamTask, by: string): Transition<TeamTask> {
  return {
    value: task,
    tasks: [task],
    events: [{ type: 'team:task-completed', data: { task, by, unblocked: freedBy(state, task.id) } }],
  };
}

function updated(previous: TeamTask, task: TeamTask, by: string): Transition<TeamTask> {
  return {
    value: task,
    tasks: [task],
    events: [{ type: 'team:task-updated', data: { task, by, from: previous.status, to: task.status } }],
  };
}

/**
 * Change a task: complete it, release it, or add a note; or (in a change of their own) add or
 * remove dependencies, which is `editTask`'s rule.
 * Checks: the change is well formed; the task exists and is not final (`task-completed`,
 * `task-deleted`); `by` is its owner or the lead (`not-owner`); the person running the team
 * (`user`) has the lead's say.
 * - The owner completes its task with a result (`result-required`), or releases it to `pending`.
 * - The lead releases an in-progress task, or unassigns a pending one (status `pending`); it
 *   closes a pending task that is no longer needed (status `completed`, optional result as the
 *   reason): closed tasks count as completed for dependents and the run. It cannot complete
 *   another agent's work (`task-in-progress`).
 * - A release clears owner and assignee: the task goes back to the list for anyone.
 * - A note replaces the task's note; it may come alone or with a status.
 * Events: `team:task-completed` (with the tasks it unblocks) or `team:task-updated`.
 */
export function updateTask(
  state: TaskListState,
  taskId: string,
  input: TaskChange,
  by: string,
  context: RuleContext,
): Transition<TeamTask> {
  checkBoardActor(state, by);
  const checked = checkTaskChange(input);
  if ('edit' in checked) return editTask(state, taskId, checked.edit, by, context);
  const change = checked;
  const task = requireTask(state, taskId);
  refuseFinal(task);
  const isOwner = task.status === 'in_progress' && task.owner === by;
  const isLead = plansAsLead(state, by);
  if (!isOwner && !isLead) refuseStranger(task, by);
  const note = change.note ?? task.note;
  const stamp = { note, updatedAt: context.now };

  if (change.status === 'completed') {
    if (task.status === 'in_progress') {
      if (!isOwner) {
        throw new TeamError(
          'task-in-progress',
          `The task ${task.id} is in progress with ${task.owner}: ${task.owner} completes it, or you release it first.`,
          { details: { taskId: task.id, owner: task.owner } },
        );
      }
      if (change.result === undefined || change.result.trim().length === 0) {
        throw new TeamError('result-required', `Give the result of ${task.id} to complete it.`, {
          details: { taskId: task.id },
        });
      }
      return completed(
        state,
        freezeTask({ ...task, ...stamp, status: 'completed', result: change.result }),
        by,
      );
    }
    const closed = {
      ...task,
      ...stamp,
      status: 'completed',
      result: change.result ?? null,
      closed: true,
    } as const;
    return completed(state, freezeTask(closed), by);
  }

  if (change.status === 'pending' && (task.status === 'in_progress' || task.assignee !== null)) {
    return updated(
      task,
      freezeTask({ ...task, ...stamp, status: 'pending', owner: null, assignee: null }),
      by,
    );
  }
  if (change.note === undefined || change.note === task.note) return unchanged(task);
  return updated(task, freezeTask({ ...task, ...stamp }), by);
}
