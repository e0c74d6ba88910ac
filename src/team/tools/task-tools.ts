import { tool } from 'ai';
import { z } from 'zod';
import type { TeamTask } from '../../board/task.js';
import { taskNotFound } from '../../board/task-permissions.js';
import { TeamError } from '../../errors/index.js';
import { guardComplete } from '../../governance/hooks-tools.js';
import { taskView } from './task-view.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// Schemas made once: each is turned into JSON Schema once, not on every model call.
// Strict: a parameter the tool does not have (`depends_on`) is refused, never dropped.
const listTasksFields = z.strictObject({});
const getTaskFields = z.strictObject({ taskId: z.string().describe('Id of the task') });
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
});
const listTasksInput = toolInputSchema(listTasksFields);
const getTaskInput = toolInputSchema(getTaskFields);
const claimTaskInput = toolInputSchema(claimTaskFields);
const updateTaskInput = toolInputSchema(updateTaskFields);

/** Tasks a list shows at most, and how much of each result; get_task has the rest. */
const LIST_LIMIT = 40;
const LIST_RESULT_LENGTH = 300;

/** In progress first, then pending, then the latest completed: what a reader acts on. */
function byRelevance(tasks: TeamTask[]): TeamTask[] {
  const rank = (task: TeamTask) => (task.status === 'in_progress' ? 0 : task.status === 'pending' ? 1 : 2);
  return [...tasks].sort(
    (a, b) => rank(a) - rank(b) || (rank(a) === 2 ? b.updatedAt.localeCompare(a.updatedAt) : 0),
  );
}

export function listTasksTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'The task list: statuses, owners, what each waits for, results, and what you can take.',
    inputSchema: listTasksInput,
    execute: (input) =>
      answer(context, { tool: 'list_tasks', agent, schema: listTasksFields, input }, (_, { board }) => {
        const tasks = board.listTasks();
        const shown = tasks.length > LIST_LIMIT ? byRelevance(tasks).slice(0, LIST_LIMIT) : tasks;
        const isMember = board.roster.members.includes(agent);
        return {
          counts: board.counts(),
          ...(isMember
            ? {
                youHold: board.heldBy(agent)?.id ?? null,
                youCanTake: board.claimableBy(agent).map((task) => task.id),
              }
            : {}),
          tasks: shown.map((task) => taskView(board, task, LIST_RESULT_LENGTH)),
          ...(shown.length < tasks.length ? { omitted: tasks.length - shown.length } : {}),
        };
      }),
  });
}

export function getTaskTool(context: TeamToolContext, agent: string) {
  return tool({
    description: 'One task in full, with its whole result.',
    inputSchema: getTaskInput,
    execute: (input) =>
      answer(context, { tool: 'get_task', agent, schema: getTaskFields, input }, ({ taskId }, { board }) => {
        const task = board.getTask(taskId);
        if (!task) throw taskNotFound(taskId);
        return { task: taskView(board, task) };
      }),
  });
}

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
      'Complete your task (status "completed" with the result), give it back (status "pending"), or add a note.',
    inputSchema: updateTaskInput,
    execute: async (input) =>
      (await guardComplete(context, agent, input)) ??
      answer(
        context,
        { tool: 'update_task', agent, schema: updateTaskFields, input },
        (fields, { board }) => {
          const { taskId, ...change } = fields;
          const task = board.updateTask(taskId, change, agent);
          const unblocked =
            task.status === 'completed' ? board.claimableBy(agent).map((next) => next.id) : [];
          return { task: taskView(board, task), ...(unblocked.length > 0 ? { youCanTake: unblocked } : {}) };
        },
      ),
  });
}
