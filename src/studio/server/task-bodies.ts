import { z } from 'zod';
import { read, text } from './bodies.js';

// The bodies of the board's routes: the person's task edits (src/run/task-control.ts).
// Checked whole before anything is done, as every body of the API (bodies.ts).

const ids = z.array(text, { error: 'must be a list of task ids' });

/** `POST /api/runs/:runId/tasks`: a task for the run's list (`create_task`'s fields). */
export const newTaskBody = (request: Request) =>
  read(
    request,
    'POST /api/runs/:runId/tasks',
    z.strictObject({
      title: text,
      description: z.string({ error: 'must be a string' }).optional(),
      dependsOn: ids.optional(),
      assignee: text.optional(),
      id: text.optional(),
    }),
  );

/** A member's name, or `null`: the task goes back to the list, unassigned. */
const assigneeOrNone = z.union([text, z.null()], {
  error: "must be a member's name, or null to take the task back to the list",
});

/** `PATCH /api/runs/:runId/tasks/:taskId`: what changes of a pending task, its member included (`null`: nobody). */
export const taskEditBody = (request: Request) =>
  read(
    request,
    'PATCH /api/runs/:runId/tasks/:taskId',
    z.strictObject({
      title: text.optional(),
      description: z.string({ error: 'must be a string' }).optional(),
      addDependsOn: ids.optional(),
      removeDependsOn: ids.optional(),
      assignee: assigneeOrNone.optional(),
    }),
  );

/** `DELETE /api/runs/:runId/tasks/:taskId`: why the task is deleted. */
export const taskDeletionBody = (request: Request) =>
  read(request, 'DELETE /api/runs/:runId/tasks/:taskId', z.strictObject({ reason: text }));
