// CI's guard against a slower runtime: in one process, as ratios to what the same process
// measures beside them, (1) the CPU a member turn costs beyond a bare `generateText` call of the
// same model and tools, on MemoryStore and on the FileStore, and (2) the warm makespan of 12
// tasks on 3 members against its lower bound, wide and as a dag. It prints every figure with
// its target and fails (exit 1) only past twice the target — for makespan, twice the target's
// excess over the bound — so a regression like a turn tripling its cost cannot land unseen,
// while a loaded machine's noise does not fail CI.
// Run: npm run bench:guard
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore, MemoryStore } from '../src/index.js';
import { benchTeam } from './fixtures/workers-team.js';
import { bareCall, median, medianOf, teamRun } from './turn-cost.js';
import { independent, layered, lowerBound, MEMBERS, type Workload } from './workloads.js';

const ROUNDS = 3;

interface Check {
  readonly name: string;
  readonly value: number;
  readonly target: number;
  /** Past this the guard fails. */
  readonly limit: number;
  readonly unit: string;
}

async function cpuBeyondBare(store: 'memory' | 'file', latencyMs: number): Promise<Check> {
  const folders: string[] = [];
  const make = () => {
    if (store === 'memory') return new MemoryStore();
    const root = mkdtempSync(path.join(tmpdir(), 'bench-guard-'));
    folders.push(root);
    return new FileStore({ root });
  };
  try {
    await teamRun(make, 'independent', 20, 3, latencyMs); // warm the path
    const bare = await medianOf(ROUNDS, () => bareCall(latencyMs, 200));
    const turn = await medianOf(ROUNDS, () => teamRun(make, 'independent', 100, 3, latencyMs));
    const target = store === 'memory' ? 0.3 : 2;
    return {
      name: `CPU per member turn beyond a bare generateText call, ${store === 'memory' ? 'MemoryStore' : 'FileStore'}`,
      value: turn.cpu - bare.cpu,
      target,
      limit: 2 * target,
      unit: 'ms',
    };
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

async function warmMakespan(workload: Workload, label: string): Promise<Check> {
  const bound = lowerBound(workload, MEMBERS.length);
  const once = async () => {
    const start = performance.now();
    await benchTeam(workload, 'in-process').run({ input: 'Do the tasks.' });
    return performance.now() - start;
  };
  await once(); // warm-up
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push(await once());
  const target = 1.04;
  return {
    name: `warm makespan, 12 tasks ${label}, 3 members, 200 ms a call (× the lower bound)`,
    value: median(times) / bound,
    target,
    limit: 1 + 2 * (target - 1),
    unit: '×',
  };
}

const started = performance.now();
console.log(
  `node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}; medians of ${ROUNDS}`,
);
const checks = [
  await cpuBeyondBare('memory', 0),
  await cpuBeyondBare('file', 5),
  await warmMakespan(independent, 'wide'),
  await warmMakespan(layered, 'as a dag'),
];
console.log('| measure | value | target | fails past |');
console.log('| --- | ---: | ---: | ---: |');
for (const check of checks) {
  console.log(
    `| ${check.name} | ${check.value.toFixed(3)} ${check.unit} | ${check.target} ${check.unit} | ${check.limit.toFixed(2)} ${check.unit} |`,
  );
}
const failed = checks.filter((check) => check.value > check.limit);
console.log(`bench:guard took ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed.length > 0) {
  console.error(`bench:guard failed: ${failed.map((check) => check.name).join('; ')}`);
  process.exit(1);
}
