import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { type FakeOpenAIServer, fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { byAgent, createTask } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const newsroom = fileURLToPath(new URL('../../examples/newsroom.ts', import.meta.url));

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await fakeOpenAIServer(
    byAgent({
      editor: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'Research tides', assignee: 'researcher' })] }
          : call.reason === 'synthesis'
            ? 'Tides: the moon pulls the sea.'
            : 'Planned.',
      researcher: () => 'The moon pulls the sea.',
      writer: () => 'Written.',
      checker: () => 'Checked.',
    }),
  );
});
afterAll(() => server.close());

const env = () => ({ OPENAI_COMPATIBLE_BASE_URL: server.url });

test('run drives a team file against an OpenAI-compatible server and leaves its store', async () => {
  const cwd = tempFolder();
  const run = await cli(['run', fixture('http-team.ts'), '--input', 'Write about tides'], {
    cwd,
    env: env(),
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('editor created task-1: Research tides');
  expect(run.stdout).toContain('Tides: the moon pulls the sea.');
  const tasks = await new FileStore({ root: path.join(cwd, '.agent-teams') }).transact(
    'newsroom',
    ({ board }) => board.listTasks(),
  );
  expect(tasks).toMatchObject([{ status: 'completed', result: 'The moon pulls the sea.' }]);
});

test('--model runs every agent on another model, and --store puts the store elsewhere', async () => {
  const cwd = tempFolder();
  const run = await cli(
    ['run', newsroom, '--model', 'openai-compatible/scripted', '--store', 'elsewhere', '--input', 'Tides'],
    { cwd, env: { ...env(), OPENAI_API_KEY: undefined } },
  );
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Tides: the moon pulls the sea.');
  expect(await new FileStore({ root: path.join(cwd, 'elsewhere') }).getTeam('newsroom')).toBeDefined();
});

test('--json prints one JSON event per line', async () => {
  const run = await cli(['run', fixture('http-team.ts'), '--json', '--input', 'Tides'], {
    cwd: tempFolder(),
    env: env(),
  });
  expect(run.code).toBe(0);
  const events = run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TeamEvent);
  expect(events[0]).toMatchObject({ type: 'team:start', data: { input: 'Tides' } });
  expect(events.at(-1)).toMatchObject({ type: 'team:complete', data: { stopReason: 'completed' } });
});

test.each([
  ['a file that does not exist', ['missing.ts'], {}, 'agent-teams: no such file: missing.ts'],
  [
    'a file without teams',
    [fixture('no-teams.ts')],
    {},
    'exports no teams: add `export const teams = { myTeam }`',
  ],
  ['an unknown team', [fixture('two-teams.ts'), '--team', 'gamma'], {}, 'no team "gamma" in'],
  [
    'an empty --store',
    [fixture('http-team.ts'), '--store', ''],
    {},
    'root of a FileStore must be a non-empty path, not "".',
  ],
  [
    'a team named like an object property',
    [fixture('two-teams.ts'), '--team', '__proto__'],
    {},
    'no team "__proto__" in',
  ],
  [
    'several teams and no --team',
    [fixture('two-teams.ts')],
    {},
    'exports several teams (alpha, beta): choose one with --team',
  ],
  [
    'a missing API key',
    [fixture('two-teams.ts'), '--team', 'alpha'],
    { ANTHROPIC_API_KEY: undefined },
    'needs ANTHROPIC_API_KEY: set it in the environment',
  ],
  [
    'a model server that is not reachable',
    [fixture('http-team.ts')],
    { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:59321/v1' },
    'cannot reach the model server at http://127.0.0.1:59321/v1/chat/completions',
  ],
])('%s is one clear line and a non-zero exit', async (_case, args, extra, message) => {
  const run = await cli(['run', ...args, '--input', 'go'], {
    cwd: tempFolder(),
    env: { ...env(), ...extra },
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(message);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
});

test('a store folder that is not writable is one clear line', async () => {
  const cwd = tempFolder();
  writeFileSync(path.join(cwd, 'a-file'), '');
  const run = await cli(['run', fixture('http-team.ts'), '--store', 'a-file/store', '--input', 'go'], {
    cwd,
    env: env(),
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^agent-teams: Cannot create the folder .*a-file\/store/);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
});
