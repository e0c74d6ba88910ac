import { tool } from 'ai';
import { z } from 'zod';
import type { TeamTask } from '../board/task.js';
import { taskNotFound } from '../board/task-permissions.js';
import type { TeamTaskBoard } from '../board/team-task-board.js';
import { TeamError } from '../errors/index.js';
import { cutToTokens, fitsTokens, prefixWithin } from '../prompt/tokens.js';
import { fitAnswer } from './fit-answer.js';
import { taskView } from './task-view.js';
import { answer, budgetOf, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

// list_tasks and get_task: a list of any length and a task of any size, read in answers
// that each stay within the team's prompt budget (list_tasks by pages, get_task by slices).

const STATUSES = ['pending', 'in_progress', 'completed', 'deleted'] as const;
const TEXT_FIELDS = ['description', 'result', 'note'] as const;

const listTasksFields = z.strictObject({
  status: z.enum(STATUSES).optional().describe('Only this status'),
  page: z.number().int().min(1).optional().describe('Default 1'),
});
const getTaskFields = z.strictObject({
  taskId: z.string().describe('Task id'),
  field: z.enum(TEXT_FIELDS).optional().describe('To read in slices'),
  from: z.number().int().min(0).optional().describe('Character to start at'),
});
const listTasksInput = toolInputSchema(listTasksFields);
const getTaskInput = toolInputSchema(getTaskFields);

/** Tasks a page shows at most, and how much of each result and note; get_task has the rest. */
const PAGE_SIZE = 40;
const LIST_RESULT_LENGTH = 300;
/** Ids of the tasks a member can take that an answer names; it counts the others. */
const IDS_NAMED = 10;
/** Tokens an answer keeps for everything but its tasks. */
const ANSWER_FRAME = 1_000;

/** Tasks per page under `budget`: each task gets at least 200 tokens. */
function pageSize(budget: number): number {
  return Math.max(1, Math.min(PAGE_SIZE, Math.floor((budget - ANSWER_FRAME) / 200)));
}

/** In progress first, then pending, then the latest completed, then the deleted: what a reader acts on. */
function byRelevance(tasks: readonly TeamTask[]): TeamTask[] {
  const ranks = { in_progress: 0, pending: 1, completed: 2, deleted: 3 } as const;
  const rank = (task: TeamTask) => ranks[task.status];
  return [...tasks].sort(
    (a, b) => rank(a) - rank(b) || (rank(a) >= 2 ? b.updatedAt.localeCompare(a.updatedAt) : 0),
  );
}

/** A task as a page lists it, in at most `share` tokens: long texts and id lists shortened. */
function listed(board: TeamTaskBoard, task: TeamTask, share: number) {
  const view = taskView(board, task, LIST_RESULT_LENGTH, IDS_NAMED);
  if (fitsTokens(JSON.stringify(view), share)) return view;
  const shorter = taskView(board, task, 60, 3);
  return { ...shorter, title: cutToTokens(shorter.title, Math.floor(share / 2), 'get_task reads it') };
}

/** The ids a member can take: the first few, and how many there are. */
export function canTake(ids: readonly string[]): Record<string, unknown> {
  return ids.length > IDS_NAMED
    ? { youCanTake: ids.slice(0, IDS_NAMED), youCanTakeCount: ids.length }
    : { youCanTake: ids };
}

export function listTasksTool(context: TeamToolContext, agent: string) {
  const budget = budgetOf(context);
  return tool({
    description: `Tasks, ${pageSize(budget)} a page (results and notes cut short), and what you can take.`,
    inputSchema: listTasksInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'list_tasks', agent, schema: listTasksFields, input },
        ({ status, page = 1 }, { board }) => {
          const all = board.listTasks();
          const chosen = status ? all.filter((task) => task.status === status) : all;
          const size = pageSize(budget);
          const pages = Math.max(1, Math.ceil(chosen.length / size));
          if (page > pages) {
            throw new TeamError(
              'invalid-input',
              `There are ${pages} pages${status ? ` of ${status} tasks` : ''}; page ${page} is past the last.`,
            );
          }
          const start = (page - 1) * size;
          const ordered = chosen.length > size ? byRelevance(chosen) : chosen;
          const shown = ordered.slice(start, start + size);
          const share = Math.floor((budget - ANSWER_FRAME) / size);
          const isMember = board.roster.members.includes(agent);
          const filter = status ? `status: "${status}", ` : '';
          return fitAnswer(
            {
              counts: board.counts(),
              ...(isMember
                ? {
                    youHold: board.heldBy(agent)?.id ?? null,
                    ...canTake(board.claimableBy(agent).map((task) => task.id)),
                  }
                : {}),
              ...(status ? { status } : {}),
              page,
              pages,
              tasks: shown.map((task) => listed(board, task, share)),
              ...(page < pages
                ? { next: `list_tasks { ${filter}page: ${page + 1} } shows the next ${size}` }
                : {}),
            },
            budget,
          );
        },
      ),
  });
}

/** One long field of a task from `from`, as much as fits in `room` tokens. */
function slice(task: TeamTask, field: (typeof TEXT_FIELDS)[number], from: number, room: number) {
  const text = task[field] ?? '';
  if (from > text.length) {
    throw new TeamError(
      'invalid-input',
      `The ${field} of ${task.id} has ${text.length} characters; from ${from} is past its end.`,
    );
  }
  const kept = prefixWithin(text.slice(from), room);
  const to = from + kept.length;
  return {
    task: { id: task.id, title: task.title, status: task.closed ? 'closed' : task.status },
    field,
    from,
    to,
    of: text.length,
    text: kept,
    ...(to < text.length
      ? { next: `get_task { taskId: "${task.id}", field: "${field}", from: ${to} } reads on` }
      : {}),
  };
}

export function getTaskTool(context: TeamToolContext, agent: string) {
  const budget = budgetOf(context);
  return tool({
    description: 'One task in full. A very long field is cut: read it with field and from.',
    inputSchema: getTaskInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'get_task', agent, schema: getTaskFields, input },
        ({ taskId, field, from = 0 }, { board }) => {
          const task = board.getTask(taskId);
          if (!task) throw taskNotFound(taskId);
          if (field) return slice(task, field, from, budget - ANSWER_FRAME);
          if (from > 0)
            throw new TeamError('invalid-input', 'from goes with field: the field to read from there.');
          return fitAnswer(
            { task: taskView(board, task) },
            budget,
            (cut) =>
              `The ${cut} of ${task.id} is cut here: get_task { taskId: "${task.id}", field: "${cut}", from: 0 } reads it in slices.`,
          );
        },
      ),
  });
}
