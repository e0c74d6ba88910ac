import { TeamError } from '../errors/index.js';
import type { TeamEventDraft } from '../events/team-event-map.js';
import { freezeTask, type TeamTask } from './task.js';
import { checkReason } from './task-input.js';
import { dependentsOf, findTask, type TaskListState } from './task-list-state.js';
import { compareIds } from './task-order.js';
import { checkBoardActor, refuseFinal, requireShaper, requireTask } from './task-permissions.js';
import type { RuleContext, Transition } from './transition.js';

/** A deleted task, and the tasks that waited for it, as they are now (waiting for it no more). */
export interface DeletedTask {
  /** The task, its status now `deleted`. */
  readonly task: TeamTask;
  /** The tasks that waited for it, as they are now (no longer waiting for it). */
  readonly dependents: readonly TeamTask[];
}

/**
 * Take a task off the plan, with a reason.
 * Checks: the reason is given (`invalid-input`); `by` is on the team or is the person; the
 * task exists and is not final (`task-completed`, `task-deleted`); `by` is the lead, the
 * person or the task's creator (`not-owner`); no other agent holds it (`task-in-progress`:
 * its owner releases it first).
 * Changes: the task's status becomes `deleted`, its note the reason (owner and assignee stay,
 * to say whose it was); every pending task that waited for it no longer does (completed and
 * deleted ones keep their record). A deleted task is never claimed and is not open work, so a
 * run can end without it.
 * Events: `team:task-deleted` (naming the dependents), then `team:task-edited` for each dependent.
 */
export function deleteTask(
  state: TaskListState,
  taskId: string,
  reason: string,
  by: string,
  context: RuleContext,
): Transition<DeletedTask> {
  checkBoardActor(state, by);
  const why = checkReason(reason);
  const task = requireTask(state, taskId);
  refuseFinal(task);
  requireShaper(state, task, by, 'delete');
  if (task.status === 'in_progress' && task.owner !== by) {
    throw new TeamError(
      'task-in-progress',
      `The task ${task.id} is in progress with ${task.owner}: it is deleted once ${task.owner} releases it (or the lead does).`,
      { details: { taskId: task.id, owner: task.owner } },
    );
  }
  const deleted = freezeTask({ ...task, status: 'deleted', note: why, updatedAt: context.now });
  const dependents: TeamTask[] = [];
  for (const id of [...dependentsOf(state, task.id)].sort(compareIds)) {
    const dependent = findTask(state, id);
    if (dependent?.status !== 'pending') continue;
    const dependsOn = dependent.dependsOn.filter((each) => each !== task.id);
    dependents.push(freezeTask({ ...dependent, dependsOn, updatedAt: context.now }));
  }
  const events: TeamEventDraft[] = [
    {
      type: 'team:task-deleted',
      data: { task: deleted, by, reason: why, dependents: dependents.map((each) => each.id) },
    },
    ...dependents.map(
      (dependent): TeamEventDraft => ({
        type: 'team:task-edited',
        data: {
          task: dependent,
          by,
          fields: ['dependsOn'],
          addedDependsOn: [],
          removedDependsOn: [task.id],
        },
      }),
    ),
  ];
  return { value: { task: deleted, dependents }, tasks: [deleted, ...dependents], events };
}
