import { tool, zodSchema } from 'ai';
import { z } from 'zod';
import { taskView } from './task-view.js';
import { answer, type TeamToolContext } from './tool-context.js';

// Schemas made once: the AI SDK then turns each into JSON Schema once, not on every model call.
const createTaskInput = zodSchema(
  z.object({
    title: z.string().describe('Short name of the work'),
    description: z.string().optional().describe('What to do and what to deliver'),
    dependsOn: z.array(z.string()).optional().describe('Ids of tasks that must be completed first'),
    assignee: z.string().optional().describe('Member to give it to; anyone may take it if left out'),
    id: z
      .string()
      .optional()
      .describe('Id to use instead of task-N: ≤64 of A-Z a-z 0-9 . _ -; in task-N form N ≤ 1000000000'),
  }),
);
const assignTaskInput = zodSchema(
  z.object({
    taskId: z.string().describe('Id of the pending task'),
    assignee: z.string().describe('Member to give it to'),
  }),
);

export function createTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Put a task on the team list. Members see only the task: make it self-contained.',
    inputSchema: createTaskInput,
    execute: (input) =>
      answer(context, ({ board }) => ({ task: taskView(board, board.createTask(input, agent)) })),
  });
}

export function assignTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Give a pending task to a member, or to another one.',
    inputSchema: assignTaskInput,
    execute: ({ taskId, assignee }) =>
      answer(context, ({ board }) => ({ task: taskView(board, board.assignTask(taskId, assignee, agent)) })),
  });
}
