import type { TeamTaskBoard } from '../board/team-task-board.js';
import type { MemberStatus } from '../events/team-event-map.js';

/** Why the pending tasks cannot go on, one line each, for the lead's stalled turn. */
export function stallProblems(
  board: TeamTaskBoard,
  members: readonly { readonly name: string; readonly status: MemberStatus }[],
  selfClaim: boolean,
): string[] {
  const able = new Set(members.filter((m) => m.status === 'idle').map((m) => m.name));
  const problems: string[] = [];
  for (const task of board.listTasks()) {
    if (task.status !== 'pending') continue;
    const blockers = board.blockersOf(task.id);
    if (blockers.length > 0) problems.push(`${task.id} waits for ${blockers.join(', ')}`);
    else if (task.assignee !== null && !able.has(task.assignee)) {
      problems.push(`${task.id} is assigned to ${task.assignee}, who cannot work any more`);
    } else if (task.assignee === null && !selfClaim) problems.push(`${task.id} is not assigned to anyone`);
    else if (able.size === 0) problems.push(`${task.id} has no member left to take it`);
  }
  const gone = members.filter((m) => m.status === 'stopped' || m.status === 'failed');
  if (gone.length > 0)
    problems.push(`${gone.map((m) => `${m.name} (${m.status})`).join(', ')} cannot work any more`);
  return problems.length > 0 ? problems : ['no member has a task it can take'];
}
