import { MemoryStore, type TeamStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { outcomeOf, scenarios } from './scenarios.js';

/** A MemoryStore whose transact awaits once before it runs, as any database store does. */
function oneAwait(store: MemoryStore): TeamStore {
  const transact = store.transact.bind(store);
  return Object.assign(store, {
    transact: async (...args: Parameters<MemoryStore['transact']>) => {
      await Promise.resolve();
      return transact(...args);
    },
  }) as TeamStore;
}

// Found in round 1's runtime: one await in transact made this run end stalled with no member turn.
test('a store that awaits once before each transaction runs two dependent tasks to completion', async () => {
  const scenario = scenarios.find((candidate) => candidate.name === 'two tasks, one after the other');
  if (!scenario) throw new Error('scenario missing');
  expect(await outcomeOf(scenario, oneAwait(new MemoryStore()))).toEqual(scenario.expected);
});
