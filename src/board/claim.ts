import { checkMember } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';
import { blockersOf } from './dependencies.js';
import { freezeTask, type TeamTask } from './task.js';
import { findTask, readyFor, type TaskListState } from './task-list-state.js';
import { heldBy, refuseFinal, requireTask } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

/**
 * The tasks `member` may claim, best first: those assigned to it, then (with self-claim)
 * the unassigned ones, each group in id order. Only pending tasks whose dependencies are
 * all completed. It does not look at whether the member holds a task now. Read from the
 * list's index of ready tasks, so it costs what it answers, not the length of the list.
 */
export function claimableBy(state: TaskListState, member: string): TeamTask[] {
  const { assigned, open } = readyFor(state, member);
  const ids = state.selfClaim ? [...assigned, ...open] : assigned;
  return ids.map((id) => findTask(state, id) as TeamTask);
}

/**
 * The first of `claimableBy` (with `assignedOnly`, the first assigned to `member`), at the
 * cost of one look-up.
 */
export function nextFor(state: TaskListState, member: string, assignedOnly = false): TeamTask | undefined {
  const { assigned, open } = readyFor(state, member);
  const id = assigned[0] ?? (state.selfClaim && !assignedOnly ? open[0] : undefined);
  return id === undefined ? undefined : findTask(state, id);
}

function refuseUnclaimable(state: TaskListState, task: TeamTask, member: string): void {
  refuseFinal(task);
  if (task.status === 'in_progress') {
    throw new TeamError('task-in-progress', `The task ${task.id} is in progress with ${task.owner}.`, {
      details: { taskId: task.id, owner: task.owner },
    });
  }
  if (task.assignee !== null && task.assignee !== member) {
    throw new TeamError('not-assigned', `The task ${task.id} is assigned to ${task.assignee}.`, {
      details: { taskId: task.id, assignee: task.assignee },
    });
  }
  if (task.assignee === null && !state.selfClaim) {
    throw new TeamError(
      'not-assigned',
      `The task ${task.id} is not assigned to you, and members take only tasks assigned to them; ask the lead.`,
      { details: { taskId: task.id } },
    );
  }
  const blockers = blockersOf(state, task);
  if (blockers.length > 0) {
    throw new TeamError(
      'dependency-unfinished',
      `The task ${task.id} waits for ${blockers.join(', ')} to be completed`,
      {
        details: { taskId: task.id, blockers },
      },
    );
  }
}

/**
 * Start a task: the named one, or the next one `member` may take.
 * Checks: `member` is a member; it holds no other task (`holds-another-task`); a named task
 * is pending, not given to someone else, and waits for nothing (`dependency-unfinished`).
 * Changes: the task becomes `in_progress` with `member` as owner. Claiming the held task,
 * or asking for the next one while holding one, answers the held task and changes nothing.
 * No claimable task answers `undefined`.
 * Events: `team:task-claimed`.
 */
export function claimTask(
  state: TaskListState,
  member: string,
  taskId: string | undefined,
  context: RuleContext,
): Transition<TeamTask | undefined> {
  checkMember(state.roster, member, 'claim tasks');
  const held = heldBy(state, member);
  let task: TeamTask | undefined;
  if (taskId === undefined) {
    if (held) return unchanged(held);
    task = nextFor(state, member);
    if (!task) return unchanged(undefined);
  } else {
    task = requireTask(state, taskId);
    if (held?.id === task.id) return unchanged(held);
    if (held) {
      throw new TeamError(
        'holds-another-task',
        `You are working on ${held.id}; complete or release it before you claim ${task.id}.`,
        { details: { taskId: task.id, held: held.id } },
      );
    }
    refuseUnclaimable(state, task, member);
  }
  const claimed: TeamTask = freezeTask({
    ...task,
    status: 'in_progress',
    owner: member,
    updatedAt: context.now,
  });
  return {
    value: claimed,
    tasks: [claimed],
    events: [{ type: 'team:task-claimed', data: { task: claimed, member } }],
  };
}
