import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { type FakeOpenAIServer, fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type CliRun, startCli } from '../helpers/cli.js';
import { createTask } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/keyed-teams.ts', import.meta.url));

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await fakeOpenAIServer(
    (call) => {
      if (call.agent === 'lead') {
        if (call.reason === 'start' && call.step === 0) {
          return { toolCalls: ['One', 'Two', 'Three', 'Four'].map((title) => createTask({ title })) };
        }
        return call.reason === 'synthesis' ? 'All four done.' : 'Planned.';
      }
      return `${call.taskId} done by ${call.agent}`;
    },
    // Member turns take a while, so the run can be stopped midway.
    { latencyMs: (call) => (call.taskId ? 400 : 10) },
  );
});
afterAll(() => server.close());

/** Runs a command line through the shell, with an `npx` that runs this build of agent-teams. */
function shell(line: string, cwd: string, env: Record<string, string | undefined>): Promise<CliRun> {
  const bin = path.join(cwd, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh\n[ "$1" = agent-teams ] || exit 99\nshift\nexec "${process.execPath}" "${CLI}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);
  const child = spawn('sh', ['-c', line], {
    cwd,
    env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}`, FORCE_COLOR: '0' },
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

test('after Ctrl-C, the resume command carries --team, --model and --store, and works as printed', async () => {
  const cwd = tempFolder();
  // A file and a store whose names a shell must have quoted.
  const file = path.join(cwd, "team's files", 'keyed teams.ts');
  mkdirSync(path.dirname(file));
  copyFileSync(fixture, file);
  const env = { OPENAI_API_KEY: undefined, OPENAI_COMPATIBLE_BASE_URL: server.url };
  const flags = ['--team', 'slow', '--model', 'openai-compatible/scripted', '--store', 'my store'];
  const running = startCli(['run', file, ...flags, '--input', 'Do four things'], { cwd, env });
  while (!/completed task-\d/.test(running.output())) {
    if (running.child.exitCode !== null) throw new Error(`the run ended early:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  running.child.kill('SIGINT');
  const stopped = await running.done;
  expect(stopped.code).toBe(130);
  const hint = /^Continue it with: (.*)$/m.exec(stopped.stdout)?.[1] as string;
  expect(hint).toBe(
    `npx agent-teams resume '${cwd}/team'\\''s files/keyed teams.ts' --team slow --model openai-compatible/scripted --store 'my store'`,
  );

  const resumed = await shell(hint, cwd, env);
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('All four done.');
  const tasks = await new FileStore({ root: path.join(cwd, 'my store') }).transact('slow', ({ board }) =>
    board.listTasks(),
  );
  expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
});
