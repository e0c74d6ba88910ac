import type { TaskCounts } from '../events/team-event-map.js';
import type { TeamTask } from './task.js';
import { compareIds } from './task-order.js';

/** Ids kept in id order: the first is found at once, one is added or removed by search. */
class SortedIds {
  readonly #ids: string[] = [];

  get first(): string | undefined {
    return this.#ids[0];
  }

  get size(): number {
    return this.#ids.length;
  }

  values(): readonly string[] {
    return this.#ids;
  }

  add(id: string): void {
    const at = this.#search(id);
    if (at < 0) this.#ids.splice(-at - 1, 0, id);
  }

  delete(id: string): void {
    const at = this.#search(id);
    if (at >= 0) this.#ids.splice(at, 1);
  }

  #search(id: string): number {
    let low = 0;
    let high = this.#ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareIds(this.#ids[middle] as string, id);
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -(low + 1);
  }
}

/** What the list's readers ask for most, kept up to date by every change of one task. */
interface TaskIndex {
  readonly counts: TaskCounts;
  /** In-progress tasks by owner (one each, unless a hand-edited file says otherwise). */
  readonly held: Map<string, SortedIds>;
  /** Who depends on a task: ids of the tasks that list it in `dependsOn`, by its id. */
  readonly dependents: Map<string, Set<string>>;
  /** Pending, unassigned tasks waiting for nothing: what a member may take with self-claim. */
  readonly open: SortedIds;
  /** Pending tasks waiting for nothing, by the member they are assigned to. */
  readonly assigned: Map<string, SortedIds>;
}

/** Looks a task up by id in the list the index belongs to. */
type Lookup = (id: string) => TeamTask | undefined;

// Beside the list rather than in it: the list stays a plain value (what a store holds), and
// the index is built the first time it is asked for, then changed with each task.
const indexes = new WeakMap<object, TaskIndex>();

function setOf(map: Map<string, SortedIds>, key: string): SortedIds {
  let set = map.get(key);
  if (!set) {
    set = new SortedIds();
    map.set(key, set);
  }
  return set;
}

function isReady(task: TeamTask, find: Lookup): boolean {
  return task.status === 'pending' && task.dependsOn.every((id) => find(id)?.status === 'completed');
}

function count(index: TaskIndex, task: TeamTask, by: 1 | -1): void {
  const counts = index.counts as { -readonly [K in keyof TaskCounts]: number };
  counts.total += by;
  if (task.status === 'pending') counts.pending += by;
  else if (task.status === 'in_progress') counts.inProgress += by;
  else if (task.status === 'deleted') counts.deleted += by;
  else counts.completed += by;
  if (task.closed) counts.closed += by;
}

function unready(index: TaskIndex, task: TeamTask): void {
  if (task.assignee === null) index.open.delete(task.id);
  else index.assigned.get(task.assignee)?.delete(task.id);
}

function ready(index: TaskIndex, task: TeamTask, find: Lookup): void {
  if (!isReady(task, find)) return;
  if (task.assignee === null) index.open.add(task.id);
  else setOf(index.assigned, task.assignee).add(task.id);
}

function remove(index: TaskIndex, task: TeamTask): void {
  count(index, task, -1);
  if (task.status === 'in_progress' && task.owner !== null) index.held.get(task.owner)?.delete(task.id);
  unready(index, task);
  for (const id of task.dependsOn) index.dependents.get(id)?.delete(task.id);
}

function add(index: TaskIndex, task: TeamTask, find: Lookup): void {
  count(index, task, 1);
  if (task.status === 'in_progress' && task.owner !== null) setOf(index.held, task.owner).add(task.id);
  for (const id of task.dependsOn) {
    let dependents = index.dependents.get(id);
    if (!dependents) {
      dependents = new Set();
      index.dependents.set(id, dependents);
    }
    dependents.add(task.id);
  }
  ready(index, task, find);
}

/** The index of a list, built from its tasks the first time it is asked for. */
export function indexOf(list: object, tasks: readonly TeamTask[], find: Lookup): TaskIndex {
  let index = indexes.get(list);
  if (index) return index;
  index = {
    counts: { total: 0, pending: 0, inProgress: 0, completed: 0, closed: 0, deleted: 0 },
    held: new Map(),
    dependents: new Map(),
    open: new SortedIds(),
    assigned: new Map(),
  };
  for (const task of tasks) add(index, task, find);
  indexes.set(list, index);
  return index;
}

/**
 * Tells a list's index (if it has one) that the task `previous` became `next` (either may be
 * missing: added, removed). Call after the list holds `next`. A task that becomes completed,
 * or stops being so (an undone transaction), may change whether its dependents are ready:
 * only those are looked at again.
 */
export function reindex(
  list: object,
  previous: TeamTask | undefined,
  next: TeamTask | undefined,
  find: Lookup,
): void {
  const index = indexes.get(list);
  if (!index) return;
  if (previous) remove(index, previous);
  if (next) add(index, next, find);
  if ((previous?.status === 'completed') === (next?.status === 'completed')) return;
  for (const id of index.dependents.get((next ?? previous)?.id ?? '') ?? []) {
    const dependent = find(id);
    if (!dependent) continue;
    unready(index, dependent);
    ready(index, dependent, find);
  }
}
