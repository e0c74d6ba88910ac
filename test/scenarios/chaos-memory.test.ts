import { MemoryStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { chaosStore } from '../helpers/chaos-store.js';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../helpers/seeds.js';

import { outcomeOf, scenarios } from './scenarios.js';

// Every scenario on a MemoryStore whose every step is delayed at random, by seed: the runtime's
// decisions must not depend on timing, so each seed gives the same outcome.
// The seeds run concurrently (the project's maxConcurrency bounds how many): a seed spends
// most of its time in its store's idle timers, so many overlap in one worker. Each seed is
// still its own test, on its own store, with its own delays. A seed's time includes its
// siblings' turns on the CPU, so its bound is CONCURRENT_TIMEOUT_MS, not the 30 s default.
describe.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', (_title, scenario) => {
  test.concurrent.each(seeds(100))(
    'on a chaotic MemoryStore (seed %i)',
    async (seed) => {
      expect(await outcomeOf(scenario, chaosStore(new MemoryStore(), seed))).toEqual(scenario.expected);
    },
    CONCURRENT_TIMEOUT_MS,
  );
});
