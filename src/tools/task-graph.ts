import type { DeletedTask } from '../board/delete.js';
import type { TaskChange, TeamTask } from '../board/task.js';
import { notifyDeleted, notifyReassigned, notifyReleased } from '../mailbox/notices.js';
import type { TeamRules } from '../store/team-store.js';

// Changes of the plan that others must hear of: the rule's change and its notices, in one
// transaction. The lead's tools and the person's controls (src/run/task-control.ts) both
// make them here, so an agent and the person are told alike.

/** Gives a pending task to `assignee`; whom it was given to before, and the new assignee, are told. */
export function assignAndTell(rules: TeamRules, taskId: string, assignee: string, by: string): TeamTask {
  const { board, mailbox } = rules;
  const previous = board.getTask(taskId)?.assignee ?? null;
  const task = board.assignTask(taskId, assignee, by);
  if (previous && previous !== task.assignee) notifyReassigned(mailbox, by, task, previous);
  return task;
}

/**
 * Changes a task (`update_task`'s rule); when that takes it back to the list from another
 * agent (the lead's, or the person's, release: a pending task loses its assignee, one in
 * progress its owner), whoever had it is told it is no longer its to do.
 */
export function updateAndTell(rules: TeamRules, taskId: string, change: TaskChange, by: string): TeamTask {
  const { board, mailbox } = rules;
  const before = board.getTask(taskId);
  const previous = before?.owner ?? before?.assignee ?? null;
  const task = board.updateTask(taskId, change, by);
  const released = task.status === 'pending' && task.owner === null && task.assignee === null;
  if (released && previous && previous !== by) notifyReleased(mailbox, by, task, previous);
  return task;
}

/** Takes a task back to the list, unassigned: the lead's release (`update_task` status "pending"). A task nobody had is unchanged. */
export function releaseAndTell(rules: TeamRules, taskId: string, by: string): TeamTask {
  return updateAndTell(rules, taskId, { status: 'pending' }, by);
}

/** Deletes a task; its assignee, its dependents' assignees and the lead (unless it deleted it) are told why. */
export function deleteAndTell(rules: TeamRules, taskId: string, reason: string, by: string): DeletedTask {
  const { board, mailbox } = rules;
  const deleted = board.deleteTask(taskId, reason, by);
  notifyDeleted(mailbox, by, deleted, [board.roster.lead, ...board.roster.members]);
  return deleted;
}
