import { tool } from 'ai';
import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import { guardComplete } from './hooks-tools.js';
import { updateAndTell } from './task-graph.js';
import { canTake } from './task-pages.js';
import { taskView } from './task-view.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have (`depends_on`) is refused, never dropped.
const claimTaskFields = z.strictObject({
  taskId: z.string().optional().describe('Id of the task; the next one if left out'),
});
const updateTaskFields = z.strictObject({
  taskId: z.string().describe('Id of the task'),
  status: z
    .enum(['completed', 'pending'])
    .optional()
    .describe('"completed" with a result, or "pending" to give it back'),
  result: z
    .string()
    .optional()
    .describe('The finished work, complete: it is what others read; ≤50000 characters'),
  note: z.string().optional().describe('A short note on the task, ≤50000 characters'),
  addDependsOn: z
    .array(z.string())
    .optional()
    .describe('Lead or creator, pending task, in a call of its own: ids it must now wait for'),
  removeDependsOn: z
    .array(z.string())
    .optional()
    .describe('Lead or creator, pending task, in a call of its own: ids it no longer waits for'),
});
const claimTaskInput = toolInputSchema(claimTaskFields);
const updateTaskInput = toolInputSchema(updateTaskFields);

export function claimTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Start a task: the one named, or the next one you can take. You hold one task at a time.',
    inputSchema: claimTaskInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'claim_task', agent, schema: claimTaskFields, input },
        ({ taskId }, { board }) => {
          const task = board.claimTask(agent, taskId);
          if (!task) throw new TeamError('task-not-found', 'No task is waiting for you now.');
          return { task: taskView(board, task) };
        },
      ),
  });
}

export function updateTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description:
      'Complete your task (status "completed" with the result), give it back (status "pending"), or add a note. The lead (or the task\'s creator) also changes what a pending task waits for, with addDependsOn / removeDependsOn in a call of their own; a dependency that would make tasks wait in a circle, an unknown or a deleted one is refused.',
    inputSchema: updateTaskInput,
    execute: async (input) =>
      (await guardComplete(context, agent, input)) ??
      answer(context, { tool: 'update_task', agent, schema: updateTaskFields, input }, (fields, rules) => {
        const { board } = rules;
        const { taskId, ...change } = fields;
        const task = updateAndTell(rules, taskId, change, agent);
        const unblocked = task.status === 'completed' ? board.claimableBy(agent).map((next) => next.id) : [];
        return { task: taskView(board, task), ...(unblocked.length > 0 ? canTake(unblocked) : {}) };
      }),
  });
}
