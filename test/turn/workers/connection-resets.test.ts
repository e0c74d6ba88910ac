import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { TeamEvent } from 'agent-teams';
import { afterAll, describe, expect, test } from 'vitest';
import { startCli } from '../../helpers/cli.js';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../../helpers/seeds.js';
import { tempFolder } from '../../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../../store/postgres/database.js';
import {
  DatabaseProxy,
  expectSixDoneOnce,
  loggedEvents,
  resetPoints,
  terminateBackends,
} from '../../store/postgres/database-faults.js';

// The database terminates every session of a run's schema (the store's and pg-boss's, in the
// run's process and in its worker's) at seeded points of a run whose turns run on a real
// `agent-teams worker` process: the run's process (`agent-teams run`) and the worker both go
// on, the run completes without a resume, each task done once, and the worker still serves
// turns after. The seeds run concurrently, each on its own schema with its own processes.
const reachable = await postgresReachable();
const stores = postgresStores();
const teamFile = fileURLToPath(new URL('./fixtures/worker-team.ts', import.meta.url));
const children: ReturnType<typeof startCli>[] = [];
afterAll(() => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
});

function start(args: string[], schema: string, url = POSTGRES_URL) {
  const started = startCli([...args, '--postgres', url, '--schema', schema], {
    cwd: tempFolder(),
    env: { WORKER_TEAM_LATENCY_MS: '100' },
  });
  children.push(started);
  return started;
}
/** Stops a worker and waits for its exit: a worker left stopping holds its connections while the next test opens its own. */
async function stopped(worker: ReturnType<typeof startCli>): Promise<void> {
  worker.child.kill('SIGTERM');
  await worker.done;
}
const startWorker = (schema: string, url?: string) =>
  start(['worker', teamFile, '--concurrency', '2'], schema, url);
const startRun = (schema: string) => start(['run', teamFile, '--input', 'Do the six', '--json'], schema);

/** Waits until `check` holds, looking every 20 ms; past 60 s it gives up, saying what the processes said. */
async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  said: () => string,
): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}; the processes said:\n${said()}`);
    await sleep(20);
  }
}

async function logOf(schema: string): Promise<TeamEvent[]> {
  const store = stores.reader(schema);
  const runId = (await store.getTeam('crew'))?.runId;
  return runId ? store.readEvents(runId) : [];
}

const doneLines = (output: string) => output.split('\n').filter((line) => / done$/.test(line)).length;

describe.skipIf(!reachable)('connection resets with turns on a worker process', () => {
  test.concurrent.each(seeds(20, 'KILL_SEEDS'))(
    'the run and the worker go on; the run completes without a resume, each task done once (seed %i)',
    async (seed) => {
      const schema = stores.make().schema;
      const worker = startWorker(schema);
      const said = () => `worker:\n${worker.output()}${worker.errors()}`;
      await until(() => worker.output().includes('takes the turns of crew'), 'the worker', said);
      const run = startRun(schema);
      let ended = false;
      const done = run.done.finally(() => {
        ended = true;
      });
      let terminated = 0;
      for (const point of resetPoints(seed, 50).sort((a, b) => a.after - b.after)) {
        await until(async () => ended || (await loggedEvents(schema)) >= point.after, 'the point', said);
        if (ended) break;
        await sleep(point.delayMs);
        terminated += await terminateBackends(schema);
      }
      const { code, stdout, stderr } = await done;
      expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toContain('All six done.');
      expect(terminated).toBeGreaterThan(0);
      expectSixDoneOnce(await logOf(schema));
      // The worker lived through it all.
      expect(worker.child.exitCode).toBeNull();
      await stopped(worker);
    },
    CONCURRENT_TIMEOUT_MS,
  );

  test('a worker whose sessions are terminated mid-turn keeps serving turns: the next run is done on it', async () => {
    const schema = stores.make().schema;
    const worker = startWorker(schema);
    const said = () => `worker:\n${worker.output()}${worker.errors()}`;
    await until(() => worker.output().includes('takes the turns of crew'), 'the worker', said);
    const first = startRun(schema);
    await until(() => / on task-\d\) started/.test(worker.output()), 'a member turn on the worker', said);
    expect(await terminateBackends(schema)).toBeGreaterThan(0);
    expect((await first.done).code).toBe(0);
    const before = doneLines(worker.output());
    const second = await startRun(schema).done;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('All six done.');
    // The second run's six member turns (and its lead's) were the worker's.
    expect(doneLines(worker.output()) - before).toBeGreaterThanOrEqual(6);
    expect(worker.child.exitCode).toBeNull();
    await stopped(worker);
  }, 90_000);

  test('a worker cut off from the database mid-turn waits, says so, and goes on once it is back: the run completes', async () => {
    const schema = stores.make().schema;
    const proxy = new DatabaseProxy();
    await proxy.up();
    try {
      const worker = startWorker(schema, proxy.url);
      const said = () => `worker:\n${worker.output()}${worker.errors()}`;
      await until(() => worker.output().includes('takes the turns of crew'), 'the worker', said);
      const run = startRun(schema);
      await until(() => / on task-\d\) started/.test(worker.output()), 'a member turn on the worker', said);
      const before = worker.errors().length;
      await proxy.down();
      // pg-boss's statements are refused meanwhile (and tried again), and the worker says so
      // each time: after two, the turn in hand has had to wait for the database too.
      const refused = () =>
        worker
          .errors()
          .slice(before)
          .match(/pg-boss: .*ECONNREFUSED/g)?.length ?? 0;
      await until(() => refused() >= 2, 'two refused statements', said);
      await proxy.up();
      const { code, stdout } = await run.done;
      expect(code).toBe(0);
      expect(stdout).toContain('All six done.');
      expectSixDoneOnce(await logOf(schema));
      expect(worker.child.exitCode).toBeNull();
      await stopped(worker);
    } finally {
      await proxy.down();
    }
  }, 90_000);

  test('a worker whose completion of a job loses its connection (pg-boss does not await it) lives, and the run completes', async () => {
    const schema = stores.make().schema;
    const proxy = new DatabaseProxy();
    await proxy.up();
    try {
      const worker = startWorker(schema, proxy.url);
      const said = () => `worker:\n${worker.output()}${worker.errors()}`;
      await until(() => worker.output().includes('takes the turns of crew'), 'the worker', said);
      // pg-boss's statement that marks a job completed, on the first turn's end.
      const cut = proxy.cutStatement(/SET completed_on = now\(\)/, 'before-landing');
      const run = startRun(schema);
      await cut;
      const { code, stdout } = await run.done;
      expect(code).toBe(0);
      expect(stdout).toContain('All six done.');
      expectSixDoneOnce(await logOf(schema));
      expect(worker.child.exitCode).toBeNull();
      await stopped(worker);
    } finally {
      await proxy.down();
    }
  }, 90_000);
});
