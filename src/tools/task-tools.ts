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
  taskId: z.string().optional().describe('Left out: the next you can take'),
});
const updateTaskFields = z.strictObject({
  taskId: z.string().describe('Task id'),
  status: z
    .enum(['completed', 'pending'])
    .optional()
    .describe('"completed" with result; "pending" gives it back'),
  result: z.string().optional().describe('The whole finished work: others read only this; ≤50000 characters'),
  note: z.string().optional().describe('≤50000 characters'),
  addDependsOn: z.array(z.string()).optional().describe('Task ids to wait for'),
  removeDependsOn: z.array(z.string()).optional().describe('Task ids to stop waiting for'),
});
const claimTaskInput = toolInputSchema(claimTaskFields);
const updateTaskInput = toolInputSchema(updateTaskFields);

export function claimTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Start a task. You hold one at a time.',
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
      'Complete your task, give it back, or add a note. Lead or creator only: addDependsOn / removeDependsOn of a pending task, in a call of their own.',
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
