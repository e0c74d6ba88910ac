// Task board throughput: claim+complete per second and ms per operation for the memory and
// file stores at 10, 100 and 1000 tasks, and 8 processes contending on one FileStore team.
// Run: npm run bench:board        (prints a Markdown table for docs/benchmarks.md)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FileStore, MemoryStore, type TeamStore } from '../src/index.js';
import { measure, seed } from './board-work.js';

const run = promisify(execFile);
const sizes = [10, 100, 1000];

async function contention(processes: number, tasks: number) {
  const root = mkdtempSync(path.join(tmpdir(), 'agent-teams-bench-'));
  const store = new FileStore({ root });
  const workers = Array.from({ length: processes }, (_, index) => `w${index + 1}`);
  await store.createTeam('race', { lead: 'lead', members: workers, maxTasks: tasks });
  await seed(store, 'race', tasks);
  const worker = fileURLToPath(new URL('./contention-worker.ts', import.meta.url));
  const startAt = Date.now() + 2500;
  const outputs = await Promise.all(
    workers.map((member) =>
      run(process.execPath, ['--import', 'tsx', worker, root, 'race', member, String(startAt)]),
    ),
  );
  const results = outputs.map(
    (output) => JSON.parse(output.stdout) as { claimed: string[]; finishedAt: number },
  );
  const claimed = results.flatMap((result) => result.claimed);
  const seconds = (Math.max(...results.map((result) => result.finishedAt)) - startAt) / 1000;
  const final = await new FileStore({ root }).transact('race', ({ board }) => board.listTasks());
  const wrongOwner = final.filter((task) => task.status !== 'completed' || task.result !== task.owner).length;
  rmSync(root, { recursive: true, force: true });
  return {
    claimsPerSecond: claimed.length / seconds,
    transactionsPerSecond: (claimed.length * 2 + processes) / seconds,
    doubleClaims: claimed.length - new Set(claimed).size,
    unfinished: tasks - new Set(claimed).size + wrongOwner,
    perProcess: results.map((result) => result.claimed.length),
  };
}

const root = mkdtempSync(path.join(tmpdir(), 'agent-teams-bench-'));
const stores: [string, TeamStore, number][] = [
  ['MemoryStore', new MemoryStore(), 20_000],
  ['FileStore', new FileStore({ root }), 3_000],
];
console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}\n`);
console.log('| store | tasks | claim+complete per s | ms per operation | vs 10 tasks |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, store, minimum] of stores) {
  let base = 0;
  for (const size of sizes) {
    const ms = await measure(store, size, minimum);
    base ||= ms;
    console.log(
      `| ${name} | ${size} | ${(1000 / (2 * ms)).toFixed(0)} | ${ms.toFixed(4)} | ${(ms / base).toFixed(2)}x |`,
    );
  }
}
rmSync(root, { recursive: true, force: true });

console.log(
  '\n| processes on one FileStore team (1000 tasks) | claims per s (each with its completion) | transactions per s | double claims | tasks not completed exactly once by their claimer | claims per process |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | --- |');
for (const processes of [1, 2, 8]) {
  const result = await contention(processes, 1000);
  console.log(
    `| ${processes} | ${result.claimsPerSecond.toFixed(0)} | ${result.transactionsPerSecond.toFixed(0)} | ${result.doubleClaims} | ${result.unfinished} | ${result.perProcess.join(', ')} |`,
  );
}
