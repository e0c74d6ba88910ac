import type { Team } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { startTurnWorker } from '../../../src/turn/workers/turn-worker.js';
import { outcomeOf, scenarios } from '../../scenarios/scenarios.js';
import { postgresReachable, postgresStores } from '../../store/postgres/database.js';

// Every scenario with its turns queued on pg-boss and run by a worker (here in the test's
// process, on its own store object): the same outcome as in-process, rule for rule.
const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('turns on workers', () => {
  test.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    '%s',
    async (_title, scenario) => {
      const schema = stores.make().schema;
      const store = stores.make(schema);
      const workerStore = stores.make(schema);
      let ranOnWorker = 0;
      const workers = {
        executor: 'workers',
        start: (team: Team) =>
          startTurnWorker({
            teams: [team],
            store: workerStore,
            concurrency: 4,
            onTurn: (report) => {
              if (report.state === 'started') ranOnWorker++;
            },
          }),
      } as const;
      try {
        expect(await outcomeOf(scenario, store, workers)).toEqual(scenario.expected);
        // The run's executor only queues: every turn it waited for ran on the worker.
        expect(ranOnWorker).toBeGreaterThan(0);
      } finally {
        await store.close();
        await workerStore.close();
      }
    },
    60_000,
  );
});
