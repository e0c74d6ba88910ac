import { checkMember } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';
import { freezeTask, type TeamTask } from './task.js';
import { findTask, type TaskListState } from './task-list-state.js';
import type { RuleContext, Transition } from './transition.js';

/**
 * A member gives all its tasks back to the list (it is out of turns, failed, or leaves).
 * Checks: `member` is a member; `by` is that member or the lead (`not-owner`).
 * Changes: its in-progress task becomes pending; tasks assigned to it become unassigned.
 * Answers the tasks it changed.
 * Events: `team:task-updated` for each.
 */
export function releaseMember(
  state: TaskListState,
  member: string,
  by: string,
  context: RuleContext,
): Transition<TeamTask[]> {
  checkMember(state.roster, member, 'hold tasks');
  if (by !== member && by !== state.roster.lead) {
    throw new TeamError('not-owner', `Only ${member} and the lead can give ${member}'s tasks back.`, {
      details: { agent: by },
    });
  }
  const changed: TeamTask[] = [];
  for (const task of state.tasks) {
    const holds = task.status === 'in_progress' && task.owner === member;
    const given = task.status === 'pending' && task.assignee === member;
    if (!holds && !given) continue;
    changed.push(
      freezeTask({ ...task, status: 'pending', owner: null, assignee: null, updatedAt: context.now }),
    );
  }
  return {
    value: changed,
    tasks: changed,
    events: changed.map((task) => ({
      type: 'team:task-updated',
      data: { task, by, from: findTask(state, task.id)?.status ?? task.status, to: task.status },
    })),
  };
}
