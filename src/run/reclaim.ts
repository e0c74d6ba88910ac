import type { TeamTaskBoard } from '../board/team-task-board.js';
import type { TeamEvent } from '../events/team-event-map.js';
import { foldEvents } from '../fold/apply-event.js';
import { heldWhileWaiting } from '../fold/request-queries.js';

/**
 * On resume every in-progress task goes back to the list; a member that waits on a request
 * (or has an answer it has not had a turn with), or whose turn on it the crash cut, takes its
 * task again at once, so it goes on where it was, and nobody else takes the task meanwhile.
 */
export function reclaimForWaiting(board: TeamTaskBoard, events: readonly TeamEvent[]): void {
  const state = foldEvents(events);
  const held = heldWhileWaiting(state);
  // A member whose turn on a task the crash cut takes it again too: its next turn replays
  // that one (see `AgentRunState.replay`), so what the cut turn did is not done twice.
  for (const agent of state.agents.values())
    if (
      agent.role === 'member' &&
      agent.status === 'working' &&
      agent.taskId !== null &&
      !held.has(agent.name)
    )
      held.set(agent.name, agent.taskId);
  for (const [member, taskId] of held) {
    const task = board.getTask(taskId);
    if (task?.status !== 'pending') continue;
    try {
      board.claimTask(member, taskId);
    } catch {
      // Given to someone else meanwhile: the member gets its answer without the task.
    }
  }
}
