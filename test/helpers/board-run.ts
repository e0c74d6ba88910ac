import type { TeamEvent, TeamRunResult, TeamTask } from 'agent-teams';
import { expect } from 'vitest';
import { BOATS, PERSON_TASK } from '../cli/fixtures/board-team.js';

// What the person's changes to the board team's run (test/cli/fixtures/board-team.ts) must
// have done, whichever way they came: the run handle, the CLI, the Studio's API or its page.

/** Who started a turn on which task, in order. */
export const taskTurns = (events: readonly TeamEvent[]) =>
  events.flatMap((event) =>
    event.type === 'team:member-started' && event.data.taskId
      ? [`${event.data.member} ${event.data.taskId}`]
      : [],
  );

/** The run's end and its turns: the person's changes took effect in the run. */
export function expectBoardChanged(result: TeamRunResult, events: readonly TeamEvent[]): void {
  expect(result.teamResult.stopReason).toBe('completed');
  expectBoardTasks(result.teamResult.tasks);
  // Nobody took the deleted task; the reassigned one went to c alone.
  expect(taskTurns(events).sort()).toEqual(['a task-1', 'b task-4', 'c task-3']);
}

/** The board team's tasks at the end: task-2 deleted, task-3 done by c, the person's task-4 by b. */
export function expectBoardTasks(list: readonly TeamTask[]): void {
  const tasks = list.map(({ id, title, status, owner, createdBy, result: done }) => ({
    id,
    title,
    status,
    owner,
    createdBy,
    done,
  }));
  expect(tasks).toEqual([
    {
      id: 'task-1',
      title: 'Hold the line',
      status: 'completed',
      owner: 'a',
      createdBy: 'planner',
      done: 'task-1 done by a',
    },
    { id: 'task-2', title: 'Polish', status: 'deleted', owner: null, createdBy: 'planner', done: null },
    {
      id: 'task-3',
      title: 'Review',
      status: 'completed',
      owner: 'c',
      createdBy: 'planner',
      done: 'task-3 done by c',
    },
    { id: 'task-4', title: PERSON_TASK, status: 'completed', owner: 'b', createdBy: 'user', done: BOATS },
  ]);
}
