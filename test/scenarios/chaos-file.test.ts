import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { chaosStore } from '../helpers/chaos-store.js';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../helpers/seeds.js';
import { outcomeOf, scenarios } from './scenarios.js';

// Every scenario on a FileStore whose every step is delayed at random, by seed: the runtime's
// decisions must not depend on timing, so each seed gives the same outcome.
// The seeds run concurrently (the project's maxConcurrency bounds how many): a seed spends
// most of its time in its store's idle timers, so many overlap in one worker. Each seed is
// still its own test, on its own store, with its own delays. A seed's time includes its
// siblings' turns on the CPU, so its bound is CONCURRENT_TIMEOUT_MS, not the 30 s default.
describe.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', (_title, scenario) => {
  test.concurrent.each(seeds(100))(
    'on a chaotic FileStore (seed %i)',
    async (seed) => {
      // Each run's folder goes with its test: 1,300 of them left for the end take long to remove.
      const root = mkdtempSync(path.join(tmpdir(), 'agent-teams-chaos-'));
      const store = new FileStore({ root });
      try {
        expect(await outcomeOf(scenario, chaosStore(store, seed))).toEqual(scenario.expected);
      } finally {
        await store.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
    CONCURRENT_TIMEOUT_MS,
  );
});
