// What the runtime costs per member turn as the list grows: pre-seeded tasks (independent, or
// one dependency chain), members self-claim, a scripted model answers each task in text (one
// model call per task). The cost of a turn is the time the event loop was busy (not idle)
// from the first member turn's start to the last one's end, divided by the member turns:
// the model's latency is idle time, synchronous file I/O is busy time. Beside it, the
// process's CPU time (user + system) per member turn, steadier on a loaded machine. The baseline is a bare
// `generateText` call of the same model with the same tools, measured the same way in the
// same process. Medians of 3.
// Run: npm run bench:scheduling (`-- --quick` for one round at 10 and 100 tasks only,
// `-- --file-only` for the FileStore table alone)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { generateText, stepCountIs } from 'ai';
import {
  Agent,
  createTeamTools,
  FileStore,
  MemoryStore,
  type NewTask,
  Team,
  type TeamStore,
  teamToolsFor,
} from '../src/index.js';
import { scriptedModel } from '../src/testing.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const SIZES = quick ? [10, 100] : [10, 100, 1000];

type Shape = 'independent' | 'chain';

function tasksOf(shape: Shape, count: number): NewTask[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `task-${index + 1}`,
    title: `Task ${index + 1}`,
    ...(shape === 'chain' && index > 0 ? { dependsOn: [`task-${index}`] } : {}),
  }));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

interface Measure {
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

async function teamRun(
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
  let first: Mark | undefined;
  let last: Mark | undefined;
  let turns = 0;
  team.on('team:member-started', (event) => {
    if (event.data.role === 'member' && !first) first = mark();
  });
  team.on('team:member-finished', (event) => {
    if (event.data.role !== 'member') return;
    turns++;
    last = mark();
  });
  const result = await team.run({ input: 'Do the tasks.' });
  if (result.teamResult.stopReason !== 'completed')
    throw new Error(`run ended ${result.teamResult.stopReason}`);
  if (!first || !last) throw new Error('no member turn');
  return between(first, last, turns);
}

/** A bare generateText call of the same model and member tools, measured the same way. */
async function bareCall(latencyMs: number, calls: number): Promise<Measure> {
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

async function accumulated(make: () => Promise<Measure>): Promise<Measure> {
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

async function medianOf(make: () => Promise<Measure>): Promise<Measure> {
  const runs: Measure[] = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await accumulated(make));
  return {
    busy: median(runs.map((run) => run.busy)),
    cpu: median(runs.map((run) => run.cpu)),
    wall: median(runs.map((run) => run.wall)),
    turns: runs[0]?.turns ?? 0,
  };
}

const folders: string[] = [];
const fileStore = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-scheduling-'));
  folders.push(root);
  return new FileStore({ root });
};
const memoryStore = () => new MemoryStore();

const f = (ms: number) => ms.toFixed(3);

async function table(
  title: string,
  store: () => TeamStore,
  latencyMs: number,
  rows: Array<[Shape, number]>,
): Promise<void> {
  // Warm the whole path once, so the first row does not pay the JIT.
  await teamRun(store, 'independent', 20, 3, latencyMs);
  const bare = await medianOf(() => bareCall(latencyMs, 300));
  console.log(`\n${title}`);
  console.log(
    `bare generateText (same model and member tools): ${f(bare.busy)} ms busy, ${f(bare.cpu)} ms CPU, ${f(bare.wall)} ms wall per call\n`,
  );
  console.log(
    '| tasks | members | shape | turns measured | busy ms per turn | beyond bare call | busy vs 10 tasks | CPU ms per turn | beyond bare call | CPU vs 10 tasks | wall ms per turn |',
  );
  console.log('| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [shape, members] of rows) {
    let base: Measure | undefined;
    for (const count of SIZES) {
      const measure = await medianOf(() => teamRun(store, shape, count, members, latencyMs));
      base ??= measure;
      console.log(
        `| ${count} | ${members} | ${shape} | ${measure.turns} | ${f(measure.busy)} | ${f(measure.busy - bare.busy)} | ${(measure.busy / base.busy).toFixed(2)}x | ${f(measure.cpu)} | ${f(measure.cpu - bare.cpu)} | ${(measure.cpu / base.cpu).toFixed(2)}x | ${f(measure.wall)} |`,
      );
    }
  }
}

console.log(
  `node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}; medians of ${ROUNDS}`,
);
const shapes: Array<[Shape, number]> = [
  ['independent', 3],
  ['chain', 3],
  ['independent', 50],
  ['chain', 50],
];
try {
  if (!process.argv.includes('--file-only'))
    await table('MemoryStore, model answers at once', memoryStore, 0, shapes);
  await table('FileStore, model latency 5 ms', fileStore, 5, [
    ['independent', 3],
    ['chain', 3],
  ]);
} finally {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
