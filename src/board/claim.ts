import { TeamError } from '../errors/index.js';
import { checkMember } from '../state/roster.js';
import { blockersOf, isBlocked } from './dependencies.js';
import { freezeTask, type TeamTask } from './task.js';
import type { TaskListState } from './task-list-state.js';
import { heldBy, refuseCompleted, requireTask } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

/**
 * The tasks `member` may claim, best first: those assigned to it, then (with self-claim)
 * the unassigned ones, each group in id order. Only pending tasks whose dependencies are
 * all completed. It does not look at whether the member holds a task now.
 */
export function claimableBy(state: TaskListState, member: string): TeamTask[] {
  const assigned: TeamTask[] = [];
  const open: TeamTask[] = [];
  for (const task of state.tasks) {
    const mine = isClaimableBy(state, task, member);
    if (mine !== undefined) (mine ? assigned : open).push(task);
  }
  return [...assigned, ...open];
}

/** `true` when `task` is given to `member` and ready, `false` when it is open and ready, else `undefined`. */
function isClaimableBy(state: TaskListState, task: TeamTask, member: string): boolean | undefined {
  if (task.status !== 'pending') return undefined;
  const mine = task.assignee === member;
  if (!mine && !(task.assignee === null && state.selfClaim)) return undefined;
  return isBlocked(state, task) ? undefined : mine;
}

/** The first of `claimableBy`, found in one pass that stops at the first assigned task. */
function nextFor(state: TaskListState, member: string): TeamTask | undefined {
  let open: TeamTask | undefined;
  for (const task of state.tasks) {
    const mine = isClaimableBy(state, task, member);
    if (mine) return task;
    if (mine === false) open ??= task;
  }
  return open;
}

function refuseUnclaimable(state: TaskListState, task: TeamTask, member: string): void {
  refuseCompleted(task);
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
