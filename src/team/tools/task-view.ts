import type { TeamTask } from '../../board/task.js';
import type { TeamTaskBoard } from '../../board/team-task-board.js';

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A task as a model reads it: only the fields that are set, results clipped in lists. */
export function taskView(board: TeamTaskBoard, task: TeamTask, resultLength = Number.POSITIVE_INFINITY) {
  const blockers = task.status === 'pending' ? board.blockersOf(task.id) : [];
  return {
    id: task.id,
    title: task.title,
    status: task.closed ? 'closed' : task.status,
    ...(task.description && resultLength === Number.POSITIVE_INFINITY
      ? { description: task.description }
      : {}),
    ...(task.owner ? { owner: task.owner } : {}),
    ...(task.assignee ? { assignee: task.assignee } : {}),
    ...(task.dependsOn.length > 0 ? { dependsOn: task.dependsOn } : {}),
    ...(blockers.length > 0 ? { waitsFor: blockers } : {}),
    ...(task.result !== null ? { result: clip(task.result, resultLength) } : {}),
    ...(task.note !== null ? { note: clip(task.note, resultLength) } : {}),
  };
}
