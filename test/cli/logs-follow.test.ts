import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const fixture = fileURLToPath(new URL('../team/fixtures/durable-run.mjs', import.meta.url));

function events(root: string): number {
  const config = path.join(root, 'teams/durable/config.json');
  if (!existsSync(config)) return 0;
  const runId = JSON.parse(readFileSync(config, 'utf8')).runId;
  const log = path.join(root, `runs/${runId}/events.jsonl`);
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0;
}

test('logs --follow ends with exit 1, saying so, when the run’s process was killed', async () => {
  const cwd = tempFolder();
  const root = path.join(cwd, '.agent-teams');
  const child = spawn(process.execPath, [fixture, root, 'fresh'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  while (events(root) < 5) await new Promise((resolve) => setTimeout(resolve, 5));
  child.kill('SIGKILL');
  await exited;
  const followed = await cli(['logs', 'durable', '--follow'], { cwd });
  expect(followed.code).toBe(1);
  expect(followed.stdout).toContain('durable: lead leads a, b, c');
  expect(followed.stderr).toContain(`its process ${child.pid} is gone: the run`);
  expect(followed.stderr).toContain('did not finish; continue it with agent-teams resume');
});
