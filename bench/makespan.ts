// Makespan of agent-teams' event-driven scheduler against the lower bound, beside KaibanJS (the
// npm package, run on the same workloads with a model paced like ours), a 500 ms polling
// scheduler and a batch-of-N scheduler as peers run them (the last two on our rules, store and
// simulated model, 200 ms a call). agent-teams and KaibanJS are timed from the run's start to its
// return, warm (after a run in the same process) and in a fresh process (its first run). Each
// contender runs ROUNDS times, interleaved with the others; the table gives the medians.
// Run: npm run build && npm run bench:makespan (the first run installs KaibanJS into
// bench/peers/kaibanjs/; the fresh process runs the build, as users do)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { MemoryStore } from '../src/index.js';
import { benchTeam } from './fixtures/workers-team.js';
import { batchRun } from './peers/batch-scheduler.js';
import { pollingRun } from './peers/polling-scheduler.js';
import { independent, layered, lowerBound, MEMBERS, mixed, type Workload } from './workloads.js';

/** agent-teams: the tasks pre-seeded, members self-claim, each task one model call. */
async function ours(workload: Workload): Promise<number> {
  const team = benchTeam(workload, 'in-process');
  const start = performance.now();
  await team.run({ input: 'Do the tasks.' });
  return performance.now() - start;
}

/** The workload as the peers' scripts take it: [{ id, dependsOn, ms }]. */
const asJson = (workload: Workload) =>
  JSON.stringify(
    workload.tasks.map((task) => ({
      id: task.id,
      dependsOn: task.dependsOn ?? [],
      ms: workload.duration(task.id as string),
    })),
  );

const FRESH = fileURLToPath(new URL('./fixtures/fresh-makespan.mjs', import.meta.url));

/** `ours` as the first run of a new Node process, on the built package (plain node, like KaibanJS's). */
function fresh(workload: Workload): number {
  if (!existsSync(new URL('../dist/index.js', import.meta.url)))
    throw new Error('bench:makespan runs the fresh process on the build: run `npm run build` first');
  return Number(execFileSync(process.execPath, [FRESH, asJson(workload)], { encoding: 'utf8' }).trim());
}

const KAIBAN = fileURLToPath(new URL('./peers/kaibanjs/', import.meta.url));

/** KaibanJS in its own process: [fresh, warm] ms. Installed from its lock file on first use. */
function kaibanjs(workload: Workload): [number, number] {
  if (!existsSync(`${KAIBAN}node_modules/kaibanjs`)) {
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: KAIBAN,
      stdio: 'ignore',
    });
  }
  const out = execFileSync(process.execPath, ['run.mjs', asJson(workload)], {
    cwd: KAIBAN,
    encoding: 'utf8',
    env: { ...process.env, KAIBAN_TELEMETRY_OPT_OUT: '1' },
  });
  const [first, second] = out.trim().split('\n').map(Number);
  return [first as number, second as number];
}

async function peer(workload: Workload, kind: 'polling' | 'batch'): Promise<number> {
  const store = new MemoryStore();
  await store.createTeam('bench', { lead: 'lead', members: MEMBERS });
  await store.transact('bench', ({ board }) => {
    for (const task of workload.tasks) board.createTask(task, 'lead');
  });
  const work = async (_member: string, taskId: string) => {
    await sleep(workload.duration(taskId));
    return `done ${taskId}`;
  };
  const start = performance.now();
  if (kind === 'polling') await pollingRun(store, 'bench', MEMBERS, work, 500);
  else await batchRun(store, 'bench', MEMBERS, work);
  return performance.now() - start;
}

const workloads = [independent, layered, mixed];
const ROUNDS = 3;
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
console.log(
  '| workload | lower bound ms | agent-teams warm ms (ratio) | agent-teams fresh process ms (ratio) | KaibanJS warm ms (ratio) | KaibanJS fresh process ms (ratio) | 500 ms polling ms (ratio) | batch of 3 ms (ratio) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const workload of workloads) {
  const bound = lowerBound(workload, MEMBERS.length);
  await ours(workload); // warm-up
  const rounds: number[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [kaibanFresh, kaibanWarm] = kaibanjs(workload);
    rounds.push([
      await ours(workload),
      fresh(workload),
      kaibanWarm,
      kaibanFresh,
      await peer(workload, 'polling'),
      await peer(workload, 'batch'),
    ]);
  }
  const cells = (rounds[0] ?? []).map((_, column) => {
    const ms = median(rounds.map((times) => times[column] as number));
    return `${ms.toFixed(0)} (${(ms / bound).toFixed(3)})`;
  });
  console.log(`| ${workload.name} | ${bound} | ${cells.join(' | ')} |`);
}
