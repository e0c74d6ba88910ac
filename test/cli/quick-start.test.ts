import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../store/postgres/database.js';

const HOOK = fileURLToPath(new URL('fixtures/trace-loads.mjs', import.meta.url));

/** Runs the command and answers the packages it loaded (`ai`, `@ai-sdk/openai`, …). */
async function packagesLoaded(args: string[], cwd: string): Promise<Set<string>> {
  const trace = path.join(tempFolder(), 'loads.txt');
  const run = await cli(args, { cwd, env: { NODE_OPTIONS: `--import=${HOOK}`, TRACE_LOADS_FILE: trace } });
  expect(run.code).toBe(0);
  const urls = readFileSync(trace, 'utf8').split('\n');
  const names = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]);
  return new Set(names.filter((name) => name !== undefined));
}

let store: string;
beforeAll(async () => {
  store = tempFolder();
  expect((await cli(['demo', '--fast'], { cwd: store })).code).toBe(0);
});

// What a command loads is what it costs to start: the model layer is for running a team.
const MODEL_LAYER = [
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  'ollama-ai-provider-v2',
  'jiti',
  '@pydantic/genai-prices',
];

test('--help loads the command parser and nothing of the model layer or the store', async () => {
  const loaded = await packagesLoaded(['--help'], store);
  expect([...loaded]).toEqual(['commander']);
});

/** What only the live view needs: measuring text as the terminal draws it. */
const VIEW_ONLY = ['string-width', 'get-east-asian-width', 'strip-ansi'];

test.each([['tasks'], ['teams'], ['inbox', 'newsroom-demo', 'writer'], ['logs', 'newsroom-demo']])(
  'the inspection command %s reads the store without loading the model layer, zod, the lock or the live view',
  async (...args) => {
    const loaded = await packagesLoaded(args, store);
    for (const name of [...MODEL_LAYER, 'zod', 'proper-lockfile', ...VIEW_ONLY])
      expect(loaded.has(name), name).toBe(false);
  },
);

const reachable = await postgresReachable();
const stores = postgresStores();

test.skipIf(!reachable)('tasks --postgres reads the database without loading zod either', async () => {
  // A schema of its own, dropped after the file's tests.
  const { schema } = stores.make();
  const loaded = await packagesLoaded(['tasks', '--postgres', POSTGRES_URL, '--schema', schema], store);
  expect(loaded.has('pg')).toBe(true);
  for (const name of [...MODEL_LAYER, 'zod']) expect(loaded.has(name), name).toBe(false);
});

test('a run does load the AI SDK: the trace sees what a command needs', async () => {
  const loaded = await packagesLoaded(['demo', '--fast', '--json'], store);
  expect(loaded.has('ai')).toBe(true);
});
