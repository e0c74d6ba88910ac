import type { TeamRoster } from '../agent/participants.js';
import type { TaskCounts } from '../events/team-event-map.js';
import type { TeamTask } from './task.js';
import { indexOf, reindex } from './task-index.js';
import { compareIds } from './task-order.js';

/**
 * The task list as a plain, JSON-serialisable value: what the blackboard holds in its
 * `team` section. `tasks` is kept in id order; it is changed only through `putTask` and
 * `removeTask`, which keep that order.
 */
export interface TaskListState {
  readonly roster: TeamRoster;
  readonly selfClaim: boolean;
  readonly maxTasks: number;
  /** Every task, in id order. */
  readonly tasks: TeamTask[];
  /** The highest N of any `task-N` id ever on the list, so generated ids are never reused. */
  highWatermark: number;
}

/** The options of a task list. */
export interface TaskListOptions {
  /** Idle members take unassigned tasks; without it only assigned tasks are worked on. Default `true`. */
  selfClaim?: boolean;
  /** Tasks the list holds. Default 50. */
  maxTasks?: number;
}

export const DEFAULT_MAX_TASKS = 50;

export function emptyTaskList(roster: TeamRoster, options: TaskListOptions = {}): TaskListState {
  return {
    roster,
    selfClaim: options.selfClaim ?? true,
    maxTasks: options.maxTasks ?? DEFAULT_MAX_TASKS,
    tasks: [],
    highWatermark: 0,
  };
}

/** Where `id` is in the list, or where it would go (`-(position + 1)`), by binary search. */
function positionOf(tasks: readonly TeamTask[], id: string): number {
  let low = 0;
  let high = tasks.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareIds((tasks[middle] as TeamTask).id, id);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -(low + 1);
}

export function findTask(state: TaskListState, id: string): TeamTask | undefined {
  const position = positionOf(state.tasks, id);
  return position >= 0 ? state.tasks[position] : undefined;
}

/** Puts a task in its place, replacing the one with its id; answers the one replaced. */
export function putTask(state: TaskListState, task: TeamTask): TeamTask | undefined {
  const position = positionOf(state.tasks, task.id);
  let previous: TeamTask | undefined;
  if (position < 0) state.tasks.splice(-position - 1, 0, task);
  else {
    previous = state.tasks[position];
    state.tasks[position] = task;
  }
  reindex(state, previous, task, (id) => findTask(state, id));
  return previous;
}

export function removeTask(state: TaskListState, id: string): void {
  const position = positionOf(state.tasks, id);
  if (position < 0) return;
  const [previous] = state.tasks.splice(position, 1);
  reindex(state, previous, undefined, (other) => findTask(state, other));
}

function index(state: TaskListState) {
  return indexOf(state, state.tasks, (id) => findTask(state, id));
}

/** How many tasks the list holds, by status. */
export function countTasks(state: TaskListState): TaskCounts {
  return { ...index(state).counts };
}

/** The task `member` works on now, if any (the first in id order, should a hand edit give it two). */
export function heldTask(state: TaskListState, member: string): TeamTask | undefined {
  const id = index(state).held.get(member)?.first;
  return id === undefined ? undefined : findTask(state, id);
}

/** The ids of the tasks that list `id` in `dependsOn`, whatever their status. */
export function dependentsOf(state: TaskListState, id: string): readonly string[] {
  return [...(index(state).dependents.get(id) ?? [])];
}

/**
 * The ready tasks (pending, waiting for nothing) `member` may claim, as ids in id order:
 * those assigned to it, and the unassigned ones (`open`).
 */
export function readyFor(
  state: TaskListState,
  member: string,
): { assigned: readonly string[]; open: readonly string[] } {
  const found = index(state);
  return { assigned: found.assigned.get(member)?.values() ?? [], open: found.open.values() };
}

// Any case: on a case-insensitive disk `TASK-7` and `task-7` are one file, so a chosen
// `TASK-7` must keep `task-7` from being generated too.
const GENERATED_ID = /^task-(\d+)$/i;

/**
 * The largest N of a chosen `task-N` id. Generated ids count up from the highest N on the
 * list, so this keeps every later one a safe integer, far from where numbers lose digits.
 */
export const MAX_CHOSEN_TASK_NUMBER = 1_000_000_000;

/** The N of a generated-looking id (`task-7` → 7), else 0. */
export function generatedNumber(id: string): number {
  const match = GENERATED_ID.exec(id);
  return match ? Number(match[1]) : 0;
}
