// What a member turn costs the runtime: runs of pre-seeded tasks that members self-claim, one
// scripted model call per task, measured as event-loop busy time and process CPU per member
// turn, beside a bare `generateText` call of the same model and member tools measured the same
// way. Shared by bench:scheduling (the cost as the list grows) and bench:guard (CI's check).
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { generateText, stepCountIs } from 'ai';
import {
  Agent,
  createTeamTools,
  MemoryStore,
  type NewTask,
  Team,
  type TeamStore,
  teamToolsFor,
} from '../src/index.js';
import { scriptedModel } from '../src/testing.js';

export type Shape = 'independent' | 'chain';

function tasksOf(shape: Shape, count: number): NewTask[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `task-${index + 1}`,
    title: `Task ${index + 1}`,
    ...(shape === 'chain' && index > 0 ? { dependsOn: [`task-${index}`] } : {}),
  }));
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export interface Measure {
  /** Busy ms of the event loop per member turn. */
  readonly busy: number;
  /** CPU ms of the process (user + system) per member turn. */
  readonly cpu: number;
  /** Wall ms per member turn. */
  readonly wall: number;
  readonly turns: number;
}

interface Mark {
  readonly elu: EventLoopUtilization;
  readonly cpu: NodeJS.CpuUsage;
  readonly at: number;
}

const mark = (): Mark => ({
  elu: performance.eventLoopUtilization(),
  cpu: process.cpuUsage(),
  at: performance.now(),
});

function between(first: Mark, last: Mark, turns: number): Measure {
  const busy = performance.eventLoopUtilization(last.elu, first.elu).active;
  const cpu = (last.cpu.user - first.cpu.user + last.cpu.system - first.cpu.system) / 1000;
  return { busy: busy / turns, cpu: cpu / turns, wall: (last.at - first.at) / turns, turns };
}

export async function teamRun(
  store: () => TeamStore,
  shape: Shape,
  count: number,
  members: number,
  latencyMs: number,
): Promise<Measure> {
  const model = scriptedModel((call) => (call.taskId ? `done ${call.taskId}` : 'Go.'), { latencyMs });
  const names = Array.from({ length: members }, (_, index) => `m${index + 1}`);
  const team = new Team({
    name: 'bench',
    store: store(),
    lead: new Agent({ name: 'lead', model, instructions: '' }),
    members: names.map((name) => new Agent({ name, model, instructions: '' })),
    tasks: tasksOf(shape, count),
    maxTasks: count,
    maxConcurrentMembers: members,
    maxTurnsPerMember: count,
    synthesize: false,
  });
  // Marked at the first member turn's start and the last one's end only: a mark at every
  // turn (two system calls) would be charged to the turns, and the bare call has none.
  let first: Mark | undefined;
  let last: Mark | undefined;
  let turns = 0;
  team.on('team:member-started', (event) => {
    if (event.data.role === 'member' && !first) first = mark();
  });
  team.on('team:member-finished', (event) => {
    if (event.data.role !== 'member') return;
    turns++;
    if (turns === count) last = mark();
  });
  const result = await team.run({ input: 'Do the tasks.' });
  if (result.teamResult.stopReason !== 'completed')
    throw new Error(`run ended ${result.teamResult.stopReason}`);
  // One member turn a task: the count is where the last mark was taken.
  if (!first || !last || turns !== count) throw new Error(`${turns} member turns for ${count} tasks`);
  return between(first, last, count);
}

/** A bare generateText call of the same model and member tools, measured the same way. */
export async function bareCall(latencyMs: number, calls: number): Promise<Measure> {
  const model = scriptedModel((call) => `done ${call.index}`, { latencyMs });
  const store = new MemoryStore();
  await store.createTeam('bare', { lead: 'lead', members: ['m1'] });
  const tools = teamToolsFor(createTeamTools({ store, team: 'bare' }, 'm1'), 'member');
  const run = () =>
    generateText({
      model,
      system: 'You are m1.',
      messages: [{ role: 'user', content: '[turn: task task-1]\n\nYour task task-1: Task 1' }],
      tools,
      stopWhen: stepCountIs(12),
    });
  for (let index = 0; index < 20; index++) await run(); // warm-up
  const first = mark();
  for (let index = 0; index < calls; index++) await run();
  return between(first, mark(), calls);
}

/** Runs repeated until they add up to `MIN_TURNS` member turns, so small lists are not one sample. */
const MIN_TURNS = 200;

export async function accumulated(make: () => Promise<Measure>): Promise<Measure> {
  let busy = 0;
  let cpu = 0;
  let wall = 0;
  let turns = 0;
  do {
    const run = await make();
    busy += run.busy * run.turns;
    cpu += run.cpu * run.turns;
    wall += run.wall * run.turns;
    turns += run.turns;
  } while (turns < MIN_TURNS);
  return { busy: busy / turns, cpu: cpu / turns, wall: wall / turns, turns };
}

export async function medianOf(rounds: number, make: () => Promise<Measure>): Promise<Measure> {
  const runs: Measure[] = [];
  for (let round = 0; round < rounds; round++) runs.push(await accumulated(make));
  return {
    busy: median(runs.map((run) => run.busy)),
    cpu: median(runs.map((run) => run.cpu)),
    wall: median(runs.map((run) => run.wall)),
    turns: runs[0]?.turns ?? 0,
  };
}
