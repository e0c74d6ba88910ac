import { describe, expect, test } from 'vitest';
import { chaosStore } from '../helpers/chaos-store.js';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../helpers/seeds.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';
import { outcomeOf, scenarios } from './scenarios.js';

// Every scenario on a PostgresStore, plain and with every step delayed at random by seed:
// the runtime's decisions must not depend on the store, nor on its timing. The seeds run
// concurrently, as many as the project's maxConcurrency, each on its own schema; a seed's time
// includes its siblings' turns on the CPU, so its bound is CONCURRENT_TIMEOUT_MS.
const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable).each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
  '%s',
  (_title, scenario) => {
    test('on a PostgresStore', async () => {
      const store = stores.make();
      try {
        expect(await outcomeOf(scenario, store)).toEqual(scenario.expected);
      } finally {
        await store.close();
      }
    });

    test.concurrent.each(seeds(20))(
      'on a chaotic PostgresStore (seed %i)',
      async (seed) => {
        const store = stores.make();
        try {
          expect(await outcomeOf(scenario, chaosStore(store, seed))).toEqual(scenario.expected);
        } finally {
          await store.close();
        }
      },
      CONCURRENT_TIMEOUT_MS,
    );
  },
);
