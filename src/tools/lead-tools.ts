import { tool } from 'ai';
import { z } from 'zod';
import { guardCreate } from './hooks-tools.js';
import { assignAndTell, deleteAndTell } from './task-graph.js';
import { taskView } from './task-view.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have (`depends_on`) is refused, never dropped.
const createTaskFields = z.strictObject({
  title: z.string().describe('Short name of the work, ≤300 characters'),
  description: z.string().optional().describe('What to do and what to deliver, ≤50000 characters'),
  dependsOn: z.array(z.string()).optional().describe('Ids of tasks that must be completed first'),
  assignee: z.string().optional().describe('Member to give it to; anyone may take it if left out'),
  id: z
    .string()
    .optional()
    .describe('Id to use instead of task-N: ≤64 of A-Z a-z 0-9 . _ -; in task-N form N ≤ 1000000000'),
});
const assignTaskFields = z.strictObject({
  taskId: z.string().describe('Id of the pending task'),
  assignee: z.string().describe('Member to give it to'),
});
const deleteTaskFields = z.strictObject({
  taskId: z.string().describe('Id of the task'),
  reason: z.string().describe('Why it is no longer to be done, ≤50000 characters'),
});
const createTaskInput = toolInputSchema(createTaskFields);
const assignTaskInput = toolInputSchema(assignTaskFields);
const deleteTaskInput = toolInputSchema(deleteTaskFields);

export function createTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description:
      'Put a task on the team list. Members see only the task: make it self-contained. The same task twice is added once.',
    inputSchema: createTaskInput,
    execute: async (input) =>
      (await guardCreate(context, agent, input)) ??
      answer(
        context,
        { tool: 'create_task', agent, schema: createTaskFields, input },
        (fields, { board }) => {
          const before = board.counts().total;
          const task = taskView(board, board.createTask(fields, agent));
          const added = board.counts().total > before;
          return { task, ...(added ? {} : { note: 'You created this task already: nothing was added.' }) };
        },
      ),
  });
}

export function assignTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'Give a pending task to a member, or to another one.',
    inputSchema: assignTaskInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'assign_task', agent, schema: assignTaskFields, input },
        ({ taskId, assignee }, rules) => ({
          task: taskView(rules.board, assignAndTell(rules, taskId, assignee, agent)),
        }),
      ),
  });
}

export function deleteTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description:
      'Take a task off the plan, with the reason: it is kept as "deleted", never done, and tasks that waited for it no longer do (their members are told). Not a task a member is working on: it releases it first.',
    inputSchema: deleteTaskInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'delete_task', agent, schema: deleteTaskFields, input },
        ({ taskId, reason }, rules) => {
          const { task, dependents } = deleteAndTell(rules, taskId, reason, agent);
          return {
            task: taskView(rules.board, task),
            ...(dependents.length > 0 ? { noLongerWaiting: dependents.map((each) => each.id) } : {}),
          };
        },
      ),
  });
}
