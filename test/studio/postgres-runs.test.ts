import { describe, expect, test } from 'vitest';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

// The Studio on a PostgresStore (`agent-teams studio --postgres`): every run in the store is
// listed, with its status from its log, and found by id.
const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('the Studio on PostgreSQL', () => {
  test('lists every run of the store, newest first, and finds one by id', async () => {
    const store = stores.make();
    await store.createTeam('desk', { lead: 'lead', members: ['writer'] });
    const first = await store.startRun('desk');
    await store.transact('desk', ({ emit }) =>
      emit({ type: 'team:start', data: { lead: 'lead', members: ['writer'], input: 'One' } }),
    );
    await store.leaveRun('desk', first.runId as string);
    const second = await store.startRun('desk');
    const studio = studioStoreOf(store);
    expect(studio.label).toBe(`PostgreSQL, schema ${store.schema}`);
    const runs = await studio.listRuns();
    expect(runs.map((run) => [run.runId, run.team, run.events])).toEqual([
      [second.runId, 'desk', 0],
      [first.runId, 'desk', 1],
    ]);
    expect(runs[0]?.runner?.pid).toBe(process.pid);
    expect((await studio.findRun(first.runId as string))?.team).toBe('desk');
    expect(await studio.findRun('desk-20990101T000000Z-000000')).toBeUndefined();
    expect(await studio.findRun('../etc')).toBeUndefined();
  });
});
