import type { Hono } from 'hono';
import type { TeamTask } from '../../board/task.js';
import { requireGoingRun } from '../../run/control.js';
import {
  addTaskAsUser,
  deleteTaskAsUser,
  editTaskAsUser,
  type PersonTaskEdit,
} from '../../run/task-control.js';
import type { TeamHooks } from '../../tools/hooks.js';
import type { StudioEnv } from './access.js';
import { ApiError } from './api-error.js';
import type { StudioStore } from './studio-store.js';
import { newTaskBody, taskDeletionBody, taskEditBody } from './task-bodies.js';

// The person at the board of a going run: add, edit (its member too) and delete tasks. Each
// is a control of the run (src/run/task-control.ts), a commit its process folds, whichever
// process runs it; a refusal is the rule's `TeamError` (see api-error.ts) and changes nothing.

/** The team of `runId` while it is its current run and goes: 404 for an unknown run, 409 for one that ended. */
async function goingTeam(studio: StudioStore, runId: string): Promise<string> {
  const record = await studio.findRun(runId);
  if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
  await requireGoingRun(studio.store, record.team, runId);
  return record.team;
}

/** Adds the board's routes to the API. */
export function taskRoutes(
  api: Hono<StudioEnv>,
  studio: StudioStore,
  hooksOf: (team: string) => TeamHooks | undefined,
): void {
  api.post('/runs/:runId/tasks', async (c) => {
    const body = await newTaskBody(c.req.raw);
    const team = await goingTeam(studio, c.req.param('runId'));
    // The team's onTaskCreated judges the task, when the Studio's file defines the team.
    return c.json({ task: await addTaskAsUser(studio.store, team, body, hooksOf(team)) }, 201);
  });
  api.patch('/runs/:runId/tasks/:taskId', async (c) => {
    const edit: PersonTaskEdit = await taskEditBody(c.req.raw);
    const team = await goingTeam(studio, c.req.param('runId'));
    const task: TeamTask = await editTaskAsUser(studio.store, team, c.req.param('taskId'), edit);
    return c.json({ task });
  });
  api.delete('/runs/:runId/tasks/:taskId', async (c) => {
    const { reason } = await taskDeletionBody(c.req.raw);
    const team = await goingTeam(studio, c.req.param('runId'));
    return c.json({ task: await deleteTaskAsUser(studio.store, team, c.req.param('taskId'), reason) });
  });
}
