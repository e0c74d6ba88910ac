import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../../helpers/seeds.js';
import { testTeam } from '../../helpers/team.js';
import { postgresReachable, postgresStores } from './database.js';
import { expectSixDoneOnce, resetPoints, sixTasks, terminateBackends } from './database-faults.js';

// The database terminates the store's sessions (a failover, a restarted pooler, an
// idle-connection reaper would) at seeded points of a run in this process: the run goes on
// and completes without a resume, each task done once. The seeds run concurrently, each on
// its own schema (see chaos-file.test.ts for why, and for the bound of each).
const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('connection resets at seeded points, in process', () => {
  test.concurrent.each(seeds(20, 'KILL_SEEDS'))(
    'the run completes without a resume, each task done once (seed %i)',
    async (seed) => {
      const store = stores.make();
      const points = resetPoints(seed, 60);
      const { team } = testTeam(sixTasks, { store, latencyMs: 20, maxConcurrentMembers: 3 });
      const resets: Promise<number>[] = [];
      let emitted = 0;
      team.on('*', () => {
        emitted++;
        for (const point of points)
          if (point.after === emitted)
            resets.push(sleep(point.delayMs).then(() => terminateBackends(store.schema)));
      });
      const result = await team.run({ input: 'Do the six' });
      const terminated = (await Promise.all(resets)).reduce((sum, count) => sum + count, 0);
      // The seed cut sessions of the store: the run met the fault it is here for.
      expect(terminated).toBeGreaterThan(0);
      expect(result.teamResult.stopReason).toBe('completed');
      expect(result.output).toBe('All six done.');
      expectSixDoneOnce(await store.readEvents((await store.getTeam('t'))?.runId as string));
      await store.close();
    },
    CONCURRENT_TIMEOUT_MS,
  );
});
