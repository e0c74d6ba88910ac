import type { NewTask } from '../src/index.js';

/** A benchmark workload: tasks, how long each model call takes, and the bound on its makespan. */
export interface Workload {
  readonly name: string;
  readonly tasks: readonly NewTask[];
  /** Model time of one task's call, ms. */
  readonly duration: (taskId: string) => number;
}

export const MODEL_MS = 200;
export const MEMBERS = ['m1', 'm2', 'm3'];

const ids = (count: number) => Array.from({ length: count }, (_, index) => `task-${index + 1}`);

export const independent: Workload = {
  name: '12 independent tasks',
  tasks: ids(12).map((id) => ({ id, title: id })),
  duration: () => MODEL_MS,
};

export const layered: Workload = {
  name: '4 layers of 3 (each on the whole previous layer)',
  tasks: ids(12).map((id, index) => {
    const layer = Math.floor(index / 3);
    return { id, title: id, dependsOn: layer === 0 ? [] : ids(12).slice((layer - 1) * 3, layer * 3) };
  }),
  duration: () => MODEL_MS,
};

/** Not asked for: durations 100–400 ms, to show where a batch scheduler loses time. */
export const mixed: Workload = {
  name: '12 independent tasks of 100–400 ms (extra)',
  tasks: ids(12).map((id) => ({ id, title: id })),
  duration: (taskId) => [100, 400, 200, 300][Number(taskId.slice(5)) % 4] ?? MODEL_MS,
};

/** max(critical path, ceil(work / members)) in model time, ms. */
export function lowerBound(workload: Workload, members: number): number {
  const finish = new Map<string, number>();
  let work = 0;
  for (const task of workload.tasks) {
    const id = task.id as string;
    const start = Math.max(0, ...(task.dependsOn ?? []).map((dep) => finish.get(dep) ?? 0));
    finish.set(id, start + workload.duration(id));
    work += workload.duration(id);
  }
  return Math.max(Math.max(...finish.values()), Math.ceil(work / members));
}
