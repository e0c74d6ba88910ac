import { TeamError } from '../errors/index.js';
import { freezeTask, type TeamTask } from './task.js';
import type { TaskListState } from './task-list-state.js';
import type { RuleContext, Transition } from './transition.js';

/**
 * Put every in-progress task back to pending, keeping whom it is assigned to: for a run
 * that stops part-way (aborted, failed) or resumes after a crash, so nothing is left in
 * progress with nobody working on it.
 * Checks: `by` is the lead (`not-owner`).
 * Changes: each in-progress task becomes pending, its owner cleared. Answers them.
 * Events: `team:task-updated` for each.
 */
export function requeueInProgress(
  state: TaskListState,
  by: string,
  context: RuleContext,
): Transition<TeamTask[]> {
  if (by !== state.roster.lead) {
    throw new TeamError('not-owner', 'Only the lead puts interrupted tasks back on the list.', {
      details: { agent: by },
    });
  }
  const requeued = state.tasks
    .filter((task) => task.status === 'in_progress')
    .map((task) => freezeTask({ ...task, status: 'pending', owner: null, updatedAt: context.now }));
  return {
    value: requeued,
    tasks: requeued,
    events: requeued.map((task) => ({
      type: 'team:task-updated',
      data: { task, by, from: 'in_progress', to: 'pending' },
    })),
  };
}
