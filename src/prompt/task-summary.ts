import type { TeamTask } from '../board/task.js';
import { fitItems } from './fit.js';
import { tokenBound } from './tokens.js';

/** Task lines a briefing shows at most: a long list is summarised, and list_tasks pages it. */
const LINES_SHOWN = 40;

/** Characters of a task's note a briefing line shows; get_task reads the whole. */
const NOTE_SHOWN = 200;

function line(task: TeamTask): string {
  const who = task.owner ?? task.assignee;
  // A note (why it was handed back, what its member wrote on it) is what the lead acts on.
  const text = task.note?.replace(/\s+/g, ' ');
  const note = text ? ` (note: ${text.length > NOTE_SHOWN ? `${text.slice(0, NOTE_SHOWN)}…` : text})` : '';
  return `- ${task.id} [${task.closed ? 'closed' : task.status}${who ? `, ${who}` : ''}] ${task.title}${note}`;
}

/** In progress, then pending, then completed, then deleted: what the lead acts on first. */
const RANKS = { in_progress: 0, pending: 1, completed: 2, deleted: 3 } as const;

function rank(task: TeamTask): number {
  return RANKS[task.status];
}

/**
 * A task list for a briefing in at most `room` tokens: the list whole when it is short,
 * else its counts, the first lines (list order at the start, what can be acted on first
 * when stalled) and how to page through the rest.
 */
export function taskSummary(
  title: string,
  tasks: readonly TeamTask[],
  room: number,
  order: 'start' | 'stalled',
): string {
  const ordered = order === 'start' ? tasks : [...tasks].sort((a, b) => rank(a) - rank(b));
  const count = (status: TeamTask['status']) => tasks.filter((task) => task.status === status).length;
  const counts =
    tasks.length > LINES_SHOWN
      ? ` (${tasks.length} tasks: ${count('pending')} pending, ${count('in_progress')} in progress, ${count('completed')} completed${count('deleted') ? `, ${count('deleted')} deleted` : ''})`
      : '';
  const lines = ordered.slice(0, LINES_SHOWN).map(line);
  const hidden = tasks.length - lines.length;
  const more = (left: number) =>
    `- … ${left + hidden} more: list_tasks { status?, page? } pages through them, get_task reads one`;
  const heading = `${title}${counts}:`;
  const space = room - tokenBound(heading, room) - 2;
  if (hidden === 0) return `${heading}\n${fitItems(lines, space, more)}`;
  // The line telling of the hidden tasks needs room too; fitItems adds it itself when it drops lines.
  const fitted = fitItems(lines, space - 60, more);
  return `${heading}\n${fitted === lines.join('\n') ? `${fitted}\n${more(0)}` : fitted}`;
}
