// CI's guard against a slower runtime: in one process, as ratios to what the same process
// measures beside them, (1) the CPU a member turn costs beyond a bare `generateText` call of the
// same model and tools, on MemoryStore and on the FileStore, and (2) the warm makespan of 12
// tasks on 3 members against its lower bound, wide and as a dag. It prints every figure with
// its target and fails (exit 1) only past twice the target — for makespan, twice the target's
// excess over the bound — so a regression like a turn tripling its cost cannot land unseen,
// while a loaded machine's noise does not fail CI. A step of .ci/run, before the tests.
// Run: npm run bench:guard
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore, MemoryStore } from '../src/index.js';
import { benchTeam } from './fixtures/workers-team.js';
import { accumulated, bareCall, type Measure, median, teamRun } from './turn-cost.js';
import { independent, layered, lowerBound, MEMBERS, type Workload } from './workloads.js';

/** Warm makespan runs a workload, after one to warm up. */
const ROUNDS = 3;
/**
 * Bare and team rounds, as pairs, per store (a FileStore round takes longer: fewer of them).
 * With 15 and 5 the medians of one runtime moved 0.35–0.65 and 2.2–4.5 ms from run to run, to
 * either side of the limits; with 45 and 11, 0.30–0.41 and 1.8–2.5 ms, two CPU hogs beside.
 */
const PAIRS = { memory: { warm: 6, pairs: 45 }, file: { warm: 1, pairs: 11 } } as const;

interface Check {
  readonly name: string;
  readonly value: number;
  readonly target: number;
  /** Past this the guard fails. */
  readonly limit: number;
  readonly unit: string;
  /** The samples the value is the median of, printed beside it. */
  readonly spread: readonly number[];
}

/**
 * Empties the young generation (run with --expose-gc), so a round does not pay for the last
 * one's short-lived garbage. Not a full collection: that made every round after it pay more
 * (both sides, the turn more: 1.5–1.7 ms beyond the bare call against 0.6–0.7 without, in
 * interleaved pairs on the same build).
 */
const collect = () => (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc?.({ type: 'minor' });

async function cpuBeyondBare(
  store: 'memory' | 'file',
  latencyMs: number,
  { warm, pairs }: { warm: number; pairs: number },
): Promise<Check> {
  const folders: string[] = [];
  const make = () => {
    if (store === 'memory') return new MemoryStore();
    const root = mkdtempSync(path.join(tmpdir(), 'bench-guard-'));
    folders.push(root);
    return new FileStore({ root });
  };
  const bare = () => bareCall(latencyMs, 200);
  const team = () => accumulated(() => teamRun(make, 'independent', 100, 3, latencyMs));
  const pair = async (index: number): Promise<number> => {
    const measured: Measure[] = [];
    for (const round of index % 2 === 0 ? [bare, team] : [team, bare]) {
      collect();
      measured.push(await round());
    }
    const [first, second] = measured as [Measure, Measure];
    return index % 2 === 0 ? second.cpu - first.cpu : first.cpu - second.cpu;
  };
  try {
    // Both paths warmed first: the JIT keeps making a turn cheaper for its first few thousand
    // turns (a round of 200 went from 3.5 to 1.0 ms of CPU a turn over its first twenty rounds).
    for (let index = 0; index < warm; index++) await pair(index);
    // A pair is a bare round and a team round back to back (in turns, which goes first), each
    // after a collection: the machine's load and the heap's state drift, but slowly, so each
    // difference is taken between neighbours and the median of the differences kept.
    const differences: number[] = [];
    for (let index = 0; index < pairs; index++) differences.push(await pair(index));
    const target = store === 'memory' ? 0.3 : 2;
    return {
      name: `CPU per member turn beyond a bare generateText call, ${store === 'memory' ? 'MemoryStore' : 'FileStore'}`,
      value: median(differences),
      target,
      limit: 2 * target,
      unit: 'ms',
      spread: differences,
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
    spread: times.map((time) => time / bound),
  };
}

const started = performance.now();
if (!('gc' in globalThis))
  console.warn('bench:guard: run with --expose-gc (npm run bench:guard) to collect between rounds');
console.log(
  `node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((load) => load.toFixed(1))
    .join(
      ' ',
    )}; CPU: medians of ${PAIRS.memory.pairs} (MemoryStore) and ${PAIRS.file.pairs} (FileStore) paired differences; makespan: medians of ${ROUNDS}`,
);
const checks = [
  await cpuBeyondBare('memory', 0, PAIRS.memory),
  await cpuBeyondBare('file', 5, PAIRS.file),
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
for (const check of checks) {
  const samples = [...check.spread].sort((a, b) => a - b).map((value) => value.toFixed(3));
  console.log(`${check.name}: ${samples.join(', ')}`);
}
const failed = checks.filter((check) => check.value > check.limit);
console.log(`bench:guard took ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed.length > 0) {
  console.error(`bench:guard failed: ${failed.map((check) => check.name).join('; ')}`);
  process.exit(1);
}
