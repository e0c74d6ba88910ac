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
import { FileStore, MemoryStore, type TeamStore } from '../src/index.js';
import { bareCall, type Measure, medianOf, type Shape, teamRun } from './turn-cost.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const SIZES = quick ? [10, 100] : [10, 100, 1000];

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
  const bare = await medianOf(ROUNDS, () => bareCall(latencyMs, 300));
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
      const measure = await medianOf(ROUNDS, () => teamRun(store, shape, count, members, latencyMs));
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
