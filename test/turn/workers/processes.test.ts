import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TeamEvent } from 'agent-teams';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { startCli } from '../../helpers/cli.js';
import { tempFolder } from '../../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../../store/postgres/database.js';

// The real command in real processes: `agent-teams run --postgres` queues the turns of a
// team with `executor: 'workers'`, `agent-teams worker` processes run them. Workers and the
// run's process are killed with SIGKILL mid-turn; every task is still completed exactly once.
const reachable = await postgresReachable();
const stores = postgresStores();
const teamFile = fileURLToPath(new URL('./fixtures/worker-team.ts', import.meta.url));
const children: ReturnType<typeof startCli>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
});

function start(args: string[], schema: string, env?: Record<string, string>) {
  const started = startCli([...args, '--postgres', POSTGRES_URL, '--schema', schema], {
    cwd: tempFolder(),
    env,
  });
  children.push(started);
  return started;
}
const worker = (schema: string, env?: Record<string, string>) =>
  start(['worker', teamFile, '--concurrency', '2'], schema, env);
const run = (schema: string) => start(['run', teamFile, '--input', 'Do the six', '--json'], schema);

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 60_000) {
      const outputs = children.map(
        (c) => `${c.output()}${c.child.exitCode === null ? '' : ` (exited ${c.child.exitCode})`}`,
      );
      throw new Error(`gave up waiting for ${what}; the processes said:\n${outputs.join('\n---\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every event of the team's last run, from the store. */
async function logOf(schema: string): Promise<TeamEvent[]> {
  const store = stores.reader(schema);
  const runId = (await store.getTeam('crew'))?.runId;
  return runId ? store.readEvents(runId) : [];
}

/** The tasks of the run's member turn starts, grouped by the transaction that wrote them. */
async function memberStartsByTransaction(schema: string): Promise<string[][]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ tx: string; task: string }>(
      `SELECT xmin::text AS tx, body->'data'->>'taskId' AS task FROM ${schema}.events
       WHERE body->>'type' = 'team:member-started' AND body->'data'->>'role' = 'member' ORDER BY seq`,
    );
    const groups = new Map<string, string[]>();
    for (const { tx, task } of rows) groups.set(tx, [...(groups.get(tx) ?? []), task]);
    return [...groups.values()].map((tasks) => tasks.sort());
  } finally {
    await client.end();
  }
}

function expectEachTaskCompletedOnce(events: readonly TeamEvent[]) {
  const completed = events.flatMap((event) =>
    event.type === 'team:task-completed' ? [event.data.task.id] : [],
  );
  expect(completed.sort()).toEqual(['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6']);
  const end = events.at(-1);
  expect(end?.type === 'team:complete' && end.data.stopReason).toBe('completed');
}

describe.skipIf(!reachable)('turns on worker processes', () => {
  test('a run with three worker processes completes, each task once', async () => {
    const schema = stores.make().schema;
    const workers = [worker(schema), worker(schema), worker(schema)];
    await until(() => workers.every((w) => w.output().includes('takes the turns of crew')), 'the workers');
    const { code, stdout, stderr } = await run(schema).done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('All six done.');
    expectEachTaskCompletedOnce(await logOf(schema));
    // Every turn ran on some worker, none in the run's process.
    const done = workers.map(
      (w) =>
        w
          .output()
          .split('\n')
          .filter((line) => / (done|failed)$/.test(line)).length,
    );
    const turns = (await logOf(schema)).filter((event) => event.type === 'team:member-started').length;
    expect(done.reduce((a, b) => a + b, 0)).toBe(turns);
    // The first layer's three turns were started and handed over in one transaction.
    expect((await memberStartsByTransaction(schema))[0]).toEqual(['task-1', 'task-2', 'task-3']);
  }, 90_000);

  test('a worker killed mid-turn under the default turn bound: the turn is redone on another once its lease runs out, long before the bound, and the run completes', async () => {
    const schema = stores.make().schema;
    const doomed = worker(schema);
    await until(() => doomed.output().includes('takes the turns'), 'the first worker');
    const running = run(schema);
    await until(() => / on task-\d\) started/.test(doomed.output()), 'a member turn on the first worker');
    doomed.child.kill('SIGKILL');
    // The turns it had started and not ended when it died.
    const said = doomed.output();
    const cut = [...said.matchAll(/crew: (\w+) turn (\d+) \(task on (task-\d)\) started/g)]
      .map((match) => `crew: ${match[1]} turn ${match[2]} (task on ${match[3]})`)
      .filter((turn) => !said.includes(`${turn} done`) && !said.includes(`${turn} failed`));
    expect(cut.length).toBeGreaterThan(0);
    const rescuer = worker(schema);
    // Their leases run out, the run's process queues them again, the other worker takes them.
    await until(
      () => cut.every((turn) => rescuer.output().includes(`${turn}, attempt 2 started`)),
      'the killed turns redone on the other worker',
    );
    // Waited for at most a minute (until's bound): the lease, not the ten-minute turn bound, let
    // the turn go. How long it takes is the lease's length plus pg-boss's maintenance tick
    // (docs/reliability.md); a timed assertion here would fail on a loaded machine, not on a bug.
    const { code, stderr } = await running.done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(rescuer.output()).toMatch(/attempt 2 done/);
    expectEachTaskCompletedOnce(await logOf(schema));
  }, 90_000);

  test('pg-boss’s connections cut mid-run: the error is said by the worker and logged in the run as team:error, and the run completes', async () => {
    const schema = stores.make().schema;
    const w = worker(schema);
    await until(() => w.output().includes('takes the turns'), 'the worker');
    const running = run(schema);
    await until(() => / on task-\d\) started/.test(w.output()), 'a member turn on the worker');
    // Every pg-boss connection of this schema, the run's and the worker's (not the store's).
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      const cut = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`agent-teams boss ${schema}`],
      );
      expect(cut.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const { code, stderr } = await running.done;
    expect(code).toBe(0);
    const errors = (await logOf(schema)).filter((event) => event.type === 'team:error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toMatchObject({
      data: { source: 'pg-boss', message: expect.stringMatching(/terminat/) },
    });
    expect(stderr).toMatch(/pg-boss: .*terminat/);
    expect(w.errors()).toMatch(/agent-teams worker: pg-boss: .*terminat/);
    expectEachTaskCompletedOnce(await logOf(schema));
  }, 90_000);

  test('the run’s process killed mid-run is resumed with --postgres and completes', async () => {
    const schema = stores.make().schema;
    // The second layer's turns wait for this file, so the run is still mid-way when it is killed.
    const hold = join(tempFolder(), 'go');
    const w = worker(schema, { WORKER_TEAM_HOLD: hold });
    await until(() => w.output().includes('takes the turns'), 'the worker');
    const first = run(schema);
    await until(
      async () => (await logOf(schema)).some((e) => e.type === 'team:task-completed'),
      'a task done',
    );
    first.child.kill('SIGKILL');
    await first.done;
    await writeFile(hold, '');
    const resumed = await start(['resume', teamFile, '--json'], schema).done;
    expect({ code: resumed.code, stderr: resumed.stderr }).toEqual({ code: 0, stderr: '' });
    const events = await logOf(schema);
    expect(events.some((event) => event.type === 'team:resumed')).toBe(true);
    expectEachTaskCompletedOnce(events);
  }, 90_000);
});
