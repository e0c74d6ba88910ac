import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOpenAIServer, fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { byAgent, createTask } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await fakeOpenAIServer(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ id: 'facts', title: 'Find facts', assignee: 'researcher' }),
                createTask({ title: 'Write it', dependsOn: ['facts'], assignee: 'writer' }),
              ],
            }
          : call.reason === 'synthesis'
            ? 'Tides, in short.'
            : 'Planned.',
      researcher: () => 'The moon pulls the sea.',
      writer: () => 'The sea follows the moon.',
    }),
  );
});
afterAll(() => server.close());

const noKeys = { OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined };

test('init writes a starter team and a README on how to run it, and says how', async () => {
  const cwd = tempFolder();
  const init = await cli(['init'], { cwd });
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('Wrote agent-team/team.ts');
  expect(init.stdout).toContain('npx agent-teams run agent-team/team.ts --input');
  expect(init.stdout).toContain('No key: agent-team/README.md shows the same run on the testing kit');
  const team = readFileSync(path.join(cwd, 'agent-team/team.ts'), 'utf8');
  expect(team).toContain("const model = 'openai/gpt-5.5';");
  expect(team).toContain("'ollama/llama3.2'");
  expect(readFileSync(path.join(cwd, 'agent-team/README.md'), 'utf8')).toContain(
    'npx agent-teams run agent-team/team.ts --input',
  );

  // As written, it is a lead and two members on openai/gpt-5.5: it asks for that key.
  const keyless = await cli(['run', 'agent-team/team.ts', '--input', 'Tides'], { cwd, env: noKeys });
  expect(keyless.code).toBe(1);
  expect(keyless.stderr).toContain('OPENAI_API_KEY');

  const run = await cli(
    ['run', 'agent-team/team.ts', '--model', 'openai-compatible/scripted', '--input', 'Tides'],
    {
      cwd,
      env: { ...noKeys, OPENAI_COMPATIBLE_BASE_URL: server.url },
    },
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('researcher completed facts');
  expect(run.stdout).toMatch(/writer completed task-\d/);
  expect(run.stdout).toContain('Tides, in short.');
});

test('the file’s comment on the scripted model is true: done as it says, the team runs with no key', async () => {
  const cwd = tempFolder();
  expect((await cli(['init', 'offline'], { cwd })).code).toBe(0);
  const file = path.join(cwd, 'offline/team.ts');
  const text = readFileSync(file, 'utf8');
  const importLine = /`(import \{ scriptedModel \} from 'agent-teams\/testing';)`/.exec(text)?.[1];
  const snippet = /^\/\/ {3}const model = scriptedModel[\s\S]*?^\/\/ {3}\);$/m
    .exec(text)?.[0]
    .replace(/^\/\/ {3}/gm, '');
  expect(importLine).toBeDefined();
  expect(snippet).toBeDefined();
  writeFileSync(file, `${importLine}\n${text.replace("const model = 'openai/gpt-5.5';", snippet as string)}`);
  const run = await cli(['run', 'offline/team.ts', '--input', 'Tides'], { cwd, env: noKeys });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('researcher completed task-1');
  expect(run.stdout).toContain('lead: done (synthesis).');
});

/** The words of a shell line, double-quoted ones whole. */
const words = (line: string) => (line.match(/"[^"]*"|\S+/g) ?? []).map((word) => word.replace(/^"|"$/g, ''));

test('the README’s run without a key is true: its fake model server, then its command, run the team', async () => {
  const cwd = tempFolder();
  expect((await cli(['init'], { cwd })).code).toBe(0);
  const readme = readFileSync(path.join(cwd, 'agent-team/README.md'), 'utf8');
  const code = /^node --input-type=module -e "\n([\s\S]*?)^"$/m.exec(readme)?.[1];
  const command = /^npx agent-teams (run .*--model openai-compatible\/.*)$/m.exec(readme)?.[1];
  expect(readme).toContain('npm install agent-teams');
  expect(code).toContain("from 'agent-teams/testing'");
  expect(command).toBeDefined();
  // In this repository the package's own name resolves to its build, as it does in a
  // project where it is installed.
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const server = spawn(process.execPath, ['--input-type=module', '-e', code as string], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [first] = (await once(server.stdout, 'data')) as [Buffer];
    const printed = /^export OPENAI_COMPATIBLE_BASE_URL=(\S+)$/m.exec(first.toString())?.[1];
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(readme).toContain('export OPENAI_COMPATIBLE_BASE_URL=http://127.0.0.1:<port>/v1');
    const run = await cli(words(command as string), {
      cwd,
      env: { ...noKeys, OPENAI_COMPATIBLE_BASE_URL: printed },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('researcher completed task-1');
    expect(run.stdout).toContain('lead: done (synthesis).');
  } finally {
    server.kill();
  }
});

test('init overwrites nothing: one line, exit 1, and neither file written', async () => {
  const cwd = tempFolder();
  expect((await cli(['init', 'here'], { cwd })).code).toBe(0);
  writeFileSync(path.join(cwd, 'here/team.ts'), 'mine');
  const again = await cli(['init', 'here'], { cwd });
  expect(again.code).toBe(1);
  expect(again.stderr).toBe(
    'agent-teams: here/team.ts already exists: init overwrites nothing (give it another folder)\n',
  );
  expect(readFileSync(path.join(cwd, 'here/team.ts'), 'utf8')).toBe('mine');

  // Only the README is there: the team file is not written either.
  const other = tempFolder();
  writeFileSync(path.join(other, 'README.md'), 'my project');
  const refused = await cli(['init', '.'], { cwd: other });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(
    'agent-teams: README.md already exists: init overwrites nothing (give it another folder)\n',
  );
  expect(() => readFileSync(path.join(other, 'team.ts'))).toThrow();
  expect(readFileSync(path.join(other, 'README.md'), 'utf8')).toBe('my project');
});
