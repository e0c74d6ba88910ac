import { FileStore, MemoryStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';
import { outcomeOf, scenarios } from './scenarios.js';

describe.each([
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore({ root: tempFolder() })],
])('on a %s', (_name, store) => {
  test.each(scenarios.map((scenario) => [scenario.name, scenario] as const))(
    '%s',
    async (_title, scenario) => {
      expect(await outcomeOf(scenario, store())).toEqual(scenario.expected);
    },
  );
});
