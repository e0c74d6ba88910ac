import { checkMember, USER } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';
import { freezeTask, type TeamTask } from './task.js';
import type { TaskListState } from './task-list-state.js';
import { plansAsLead, refuseFinal, requireTask } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

/**
 * Give a pending task to a member (or to another one).
 * Checks: `by` is the lead or the person running the team (`not-owner`); the task exists and is pending
 * (`task-in-progress`: release it first, which the person does by giving it to nobody;
 * `task-completed`); the assignee is a member.
 * Changes: the task's assignee. Assigning it to its assignee again changes nothing.
 * Events: `team:task-assigned` with the previous assignee as `previousOwner`.
 */
export function assignTask(
  state: TaskListState,
  taskId: string,
  assignee: string,
  by: string,
  context: RuleContext,
): Transition<TeamTask> {
  if (!plansAsLead(state, by)) {
    throw new TeamError(
      'not-owner',
      `Only the lead assigns tasks; ${by} can claim an unassigned task instead.`,
      {
        details: { agent: by },
      },
    );
  }
  const task = requireTask(state, taskId);
  refuseFinal(task);
  if (task.status === 'in_progress') {
    // The person releases by giving the task to nobody; the lead, with update_task.
    const release =
      by === USER
        ? 'take it back to the list first (an assignee of none)'
        : 'release it (status "pending") first';
    throw new TeamError(
      'task-in-progress',
      `The task ${task.id} is in progress with ${task.owner}; ${release}, then assign it.`,
      { details: { taskId: task.id, owner: task.owner } },
    );
  }
  checkMember(state.roster, assignee, 'be assigned tasks');
  if (task.assignee === assignee) return unchanged(task);
  const next: TeamTask = freezeTask({ ...task, assignee, updatedAt: context.now });
  return {
    value: next,
    tasks: [next],
    events: [
      { type: 'team:task-assigned', data: { task: next, assignee, by, previousOwner: task.assignee } },
    ],
  };
}
