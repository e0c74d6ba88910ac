import type { TeamTaskBoard } from '../board/team-task-board.js';
import type { TeamEvent } from '../events/team-event-map.js';
import { foldEvents } from '../fold/apply-event.js';
import { heldWhileWaiting } from '../fold/request-queries.js';

/**
 * On resume every in-progress task goes back to the list; a member that waits on a request
 * (or has an answer it has not had a turn with) takes its task again at once, so it goes
 * on where it was after the answer, and nobody else takes the task meanwhile.
 */
export function reclaimForWaiting(board: TeamTaskBoard, events: readonly TeamEvent[]): void {
  for (const [member, taskId] of heldWhileWaiting(foldEvents(events))) {
    const task = board.getTask(taskId);
    if (task?.status !== 'pending') continue;
    try {
      board.claimTask(member, taskId);
    } catch {
      // Given to someone else meanwhile: the member gets its answer without the task.
    }
  }
}
