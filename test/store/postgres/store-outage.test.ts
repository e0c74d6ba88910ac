import type { TeamEvent } from 'agent-teams';
import { PostgresStore } from 'agent-teams/postgres';
import { afterEach, describe, expect, test } from 'vitest';
import { testTeam } from '../../helpers/team.js';
import { postgresReachable, postgresStores, randomSchema } from './database.js';
import { DatabaseProxy, expectSixDoneOnce, sixTasks } from './database-faults.js';

// The database out of reach mid-run, through a TCP proxy that cuts every connection and
// refuses new ones: a run waits for it and says so (`team:store-outage`); back within the
// team's `storeOutageMs`, the run goes on and completes; out of reach for longer, the run
// ends with `store-unavailable`, and a resume completes it once the database is back.
const reachable = await postgresReachable();
const stores = postgresStores();
const proxies: DatabaseProxy[] = [];
const closing: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((store) => store.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.down()));
});

/** A store on its own schema whose connections go through a proxy of their own. */
async function storeBehindProxy() {
  const proxy = new DatabaseProxy();
  proxies.push(proxy);
  await proxy.up();
  const schema = randomSchema();
  stores.schemas.push(schema);
  const store = new PostgresStore({ connectionString: proxy.url, schema });
  closing.push(store);
  return { proxy, store };
}

const outagesOf = (events: readonly TeamEvent[]) =>
  events.filter((event): event is TeamEvent<'team:store-outage'> => event.type === 'team:store-outage');

describe.skipIf(!reachable)('the database out of reach mid-run', () => {
  test('a short outage: the run says it waits, goes on once the database is back, and completes', async () => {
    const { proxy, store } = await storeBehindProxy();
    const { team, events } = testTeam(sixTasks, { store, latencyMs: 20 });
    // Out of reach once the first task is done; back once the run says it waits.
    let down: Promise<void> | undefined;
    team.on('team:task-completed', () => {
      down ??= proxy.down();
    });
    team.on('team:store-outage', (event) => {
      if (event.data.ended === null) void down?.then(() => proxy.up());
    });
    const result = await team.run({ input: 'Do the six' });
    expect(result.teamResult.stopReason).toBe('completed');
    const [began] = outagesOf(events);
    expect(began?.data).toMatchObject({ ended: null, waitMs: 300_000, error: expect.any(String) });
    // Its end is in the log, with when it began and ended.
    const log = await store.readEvents(result.runId);
    const [logged] = outagesOf(log);
    expect(logged?.data).toMatchObject({ began: began?.data.began, ended: expect.any(String) });
    expect(Date.parse(logged?.data.ended ?? '')).toBeGreaterThanOrEqual(Date.parse(logged?.data.began ?? ''));
    expectSixDoneOnce(log);
  }, 60_000);

  test('an outage longer than storeOutageMs: the run ends with store-unavailable; resumed once the database is back, it completes', async () => {
    const { proxy, store } = await storeBehindProxy();
    const { team, events } = testTeam(sixTasks, { store, latencyMs: 20, storeOutageMs: 2_000 });
    let cut = false;
    team.on('team:task-completed', () => {
      if (cut) return;
      cut = true;
      void proxy.down();
    });
    const run = await team.start({ input: 'Do the six' });
    await expect(run.result).rejects.toMatchObject({
      code: 'store-unavailable',
      message: expect.stringMatching(
        /^The store could not be reached for 2 s: .+\. The run stopped there .*resume it/,
      ),
    });
    expect(outagesOf(events).map((event) => event.data)).toEqual([
      { began: expect.any(String), error: expect.any(String), waitMs: 2_000, ended: null },
    ]);
    await proxy.up();
    const result = await team.run({ input: 'Do the six', fresh: false });
    expect(result.teamResult.stopReason).toBe('completed');
    const log = await store.readEvents(run.runId);
    // One run, stopped by the outage and resumed: nothing done twice.
    expect(log.filter((event) => event.type === 'team:resumed')).toHaveLength(1);
    const completed = log.flatMap((event) =>
      event.type === 'team:task-completed' ? [event.data.task.id] : [],
    );
    expect(completed.sort()).toEqual(['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6']);
  }, 60_000);
});
