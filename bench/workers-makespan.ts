// Makespan with turns on worker processes: a team on a PostgresStore with `executor:
// 'workers'`, three `agent-teams worker` processes (concurrency 1 each), against the lower
// bound; beside it the same team on the same store with its turns in-process. Timed from
// team.run() to its return, after a warm-up run. Run: npm run bench:workers
// (AGENT_TEAMS_POSTGRES_URL picks the server). Prints Markdown for docs/benchmarks.md, with
// the hand-off where the team waited on one turn (the layered workload's step to a layer).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresStore } from '../src/postgres.js';
import { benchTeam, workloads } from './fixtures/workers-team.js';
import { median } from './turn-cost.js';
import { lowerBound, MEMBERS, type Workload } from './workloads.js';

const url = process.env.AGENT_TEAMS_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const cli = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const teamFile = fileURLToPath(new URL('./fixtures/workers-team.ts', import.meta.url));

function startWorker(schema: string, workload: Workload): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', cli, 'worker', teamFile, '--postgres', url, '--schema', schema],
    { env: { ...process.env, BENCH_WORKLOAD: workload.name }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('takes the turns')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`a worker exited with ${code}`)));
  });
}

/**
 * The run's makespan after a warm-up run, and its hand-offs: each member turn started while no
 * other ran (the tasks it could take waited on the turn that finished last), from that finish.
 */
async function timed(store: PostgresStore, workload: Workload, executor: 'in-process' | 'workers') {
  const team = benchTeam(workload, executor).withStore(store);
  await team.run({ input: 'Do the tasks.' }); // warm-up
  const handOffs: number[] = [];
  let running = 0;
  let finishedAt: number | undefined;
  team.on('team:member-started', (event) => {
    if (event.data.role !== 'member') return;
    if (running === 0 && finishedAt !== undefined) handOffs.push(performance.now() - finishedAt);
    running++;
  });
  team.on('team:member-finished', (event) => {
    if (event.data.role !== 'member') return;
    running--;
    finishedAt = performance.now();
  });
  const start = performance.now();
  await team.run({ input: 'Do the tasks.' });
  return { ms: performance.now() - start, handOff: handOffs.length > 0 ? median(handOffs) : Number.NaN };
}

console.log(
  '| workload | lower bound ms | 3 worker processes ms (ratio) | in-process, same store ms (ratio) | hand-off ms, workers / in-process (median) |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const workload of workloads) {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const store = new PostgresStore({ connectionString: url, schema });
  const workers: ChildProcess[] = [];
  try {
    await store.listTeams(); // the schema exists before the workers start
    for (let i = 0; i < MEMBERS.length; i++) workers.push(await startWorker(schema, workload));
    const bound = lowerBound(workload, MEMBERS.length);
    const times = [await timed(store, workload, 'workers'), await timed(store, workload, 'in-process')];
    const cells = times.map(({ ms }) => `${ms.toFixed(0)} (${(ms / bound).toFixed(3)})`);
    const handOffs = times.map(({ handOff }) => handOff.toFixed(1)).join(' / ');
    console.log(`| ${workload.name} | ${bound} | ${cells.join(' | ')} | ${handOffs} |`);
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
    await client.end();
  }
}
