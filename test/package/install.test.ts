import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOpenAIServer, fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CliRun } from '../helpers/cli.js';
import { byAgent, createTask } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { installPacked } from './user-project.js';

// A user's project: the package as `npm pack` makes it, installed offline next to the
// project's own `ai` and `zod`.
let project: string;
let server: FakeOpenAIServer;
beforeAll(async () => {
  project = tempFolder('agent-teams-user-');
  installPacked(project);
  server = await fakeOpenAIServer(
    byAgent({
      editor: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'Research tides', assignee: 'researcher' })] }
          : call.reason === 'synthesis'
            ? 'Tides: the moon pulls the sea.'
            : 'Planned.',
      researcher: () => 'The moon pulls the sea.',
    }),
  );
}, 180_000);
afterAll(() => server?.close());

/** Runs the command the install linked, which `npx agent-teams …` runs in the project. */
function agentTeams(args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const child = spawn(path.join(project, 'node_modules/.bin/agent-teams'), args, {
    cwd: project,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('the package uses the project’s own ai and zod: one copy of each', () => {
  const installed = path.join(project, 'node_modules/agent-teams');
  expect(existsSync(path.join(installed, 'node_modules/ai'))).toBe(false);
  expect(existsSync(path.join(installed, 'node_modules/zod'))).toBe(false);
  const fromPackage = createRequire(path.join(installed, 'dist/index.js'));
  const fromProject = createRequire(path.join(project, 'index.js'));
  for (const name of ['ai', 'zod']) expect(fromPackage.resolve(name)).toBe(fromProject.resolve(name));
});

test('require() from CommonJS works, and a tool made with the project’s ai and zod runs in a team', () => {
  const script = fileURLToPath(new URL('./fixtures/user-check.cjs', import.meta.url));
  const out = execFileSync(process.execPath, [script], { cwd: project, stdio: 'pipe' }).toString();
  expect(JSON.parse(out)).toEqual({
    output: 'Tides, looked up.',
    stopReason: 'completed',
    taskResult: 'Found: tides: the moon pulls the sea',
    looked: ['tides'],
    sameModule: true,
  });
});

test('the demo’s closing hint names the example that ships, and it runs as given', async () => {
  const demo = await agentTeams(['demo', '--fast']);
  expect(demo.code).toBe(0);
  const example = 'node_modules/agent-teams/examples/newsroom.ts';
  expect(demo.stdout).toContain(`npx agent-teams run ${example} --input "Write a short article about tides"`);
  const run = await agentTeams(
    ['run', example, '--model', 'openai-compatible/scripted', '--input', 'Tides'],
    {
      OPENAI_COMPATIBLE_BASE_URL: server.url,
    },
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('Tides: the moon pulls the sea.');
});
