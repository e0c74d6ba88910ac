import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Team, type TeamEvent } from 'agent-teams';
import { PostgresStore } from 'agent-teams/postgres';
import { afterAll, describe, expect, test } from 'vitest';
import { startCli } from '../../helpers/cli.js';
import { tempFolder } from '../../helpers/temp-folder.js';
import {
  POSTGRES_URL,
  postgresReachable,
  postgresStores,
  randomSchema,
} from '../../store/postgres/database.js';
import { DatabaseProxy } from '../../store/postgres/database-faults.js';
import { teams } from './fixtures/worker-team.js';

// A run whose turns are on a worker process, its own process cut off from the database
// (through a TCP proxy) for longer than its storeOutageMs while it waits on the worker: it
// says so, ends with `store-unavailable` (it does not wait for ever, nor exit silently), and
// a resume once the database is back completes it, each task done once.
const reachable = await postgresReachable();
const stores = postgresStores();
const teamFile = fileURLToPath(new URL('./fixtures/worker-team.ts', import.meta.url));
const proxy = new DatabaseProxy();
const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
});

describe.skipIf(!reachable)('the run’s process cut off from the database, its turns on a worker', () => {
  test('past storeOutageMs it ends with store-unavailable; resumed once the database is back, it completes', async () => {
    await proxy.up();
    closing.push(() => proxy.down());
    const schema = randomSchema();
    stores.schemas.push(schema);
    const worker = startCli(['worker', teamFile, '--postgres', POSTGRES_URL, '--schema', schema], {
      cwd: tempFolder(),
      env: { WORKER_TEAM_LATENCY_MS: '100' },
    });
    closing.push(async () => worker.child.kill('SIGKILL'));
    for (let waited = 0; !worker.output().includes('takes the turns of crew'); waited += 20) {
      if (waited > 60_000) throw new Error(`the worker did not start:\n${worker.output()}${worker.errors()}`);
      await sleep(20);
    }
    const store = new PostgresStore({ connectionString: proxy.url, schema });
    closing.push(() => store.close());
    const { lead, members } = teams.crew;
    const crew = new Team({
      name: 'crew',
      lead,
      members,
      maxConcurrentMembers: 3,
      executor: 'workers',
      store,
    });
    const events: TeamEvent[] = [];
    // The same team, waiting 2 s for its store.
    const impatient = new Team({
      name: 'crew',
      lead,
      members,
      maxConcurrentMembers: 3,
      executor: 'workers',
      store,
      storeOutageMs: 2_000,
    });
    impatient.on('*', (event) => {
      events.push(event);
      if (event.type === 'team:task-completed' && events.filter((e) => e.type === event.type).length === 1)
        void proxy.down();
    });
    const run = await impatient.start({ input: 'Do the six' });
    await expect(run.result).rejects.toMatchObject({ code: 'store-unavailable' });
    expect(events.some((event) => event.type === 'team:store-outage' && event.data.ended === null)).toBe(
      true,
    );
    await proxy.up();
    const result = await crew.run({ input: 'Do the six', fresh: false });
    expect(result.teamResult.stopReason).toBe('completed');
    const log = await store.readEvents(run.runId);
    const completed = log.flatMap((event) =>
      event.type === 'team:task-completed' ? [event.data.task.id] : [],
    );
    expect(completed.sort()).toEqual(['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6']);
    expect(worker.child.exitCode).toBeNull();
  }, 90_000);
});
