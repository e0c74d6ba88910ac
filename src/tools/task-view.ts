import type { TeamTask } from '../board/task.js';
import type { TeamTaskBoard } from '../board/team-task-board.js';

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Ids a list names: the first `max`, and how many more there are. */
function ids(list: readonly string[], max: number): string[] {
  return list.length > max ? [...list.slice(0, max), `… ${list.length - max} more`] : [...list];
}

/**
 * A task as a model reads it: only the fields that are set, results and id lists clipped in
 * lists. `blockedBy`: the unfinished tasks it waits for; `blocks`: the unfinished tasks that
 * wait for it. A deleted task's note is the reason it was deleted.
 */
export function taskView(
  board: TeamTaskBoard,
  task: TeamTask,
  resultLength = Number.POSITIVE_INFINITY,
  idsShown = Number.POSITIVE_INFINITY,
) {
  const blockedBy = ids(task.status === 'pending' ? board.blockersOf(task.id) : [], idsShown);
  const blocks = ids(board.blocks(task.id), idsShown);
  return {
    id: task.id,
    title: task.title,
    status: task.closed ? 'closed' : task.status,
    ...(task.description && resultLength === Number.POSITIVE_INFINITY
      ? { description: task.description }
      : {}),
    ...(task.owner ? { owner: task.owner } : {}),
    ...(task.assignee ? { assignee: task.assignee } : {}),
    ...(task.dependsOn.length > 0 ? { dependsOn: ids(task.dependsOn, idsShown) } : {}),
    ...(blockedBy.length > 0 ? { blockedBy } : {}),
    ...(blocks.length > 0 ? { blocks } : {}),
    ...(task.result !== null ? { result: clip(task.result, resultLength) } : {}),
    ...(task.note !== null ? { note: clip(task.note, resultLength) } : {}),
  };
}
