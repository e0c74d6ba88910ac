import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const teamFile = fileURLToPath(new URL('./fixtures/studio-teams.ts', import.meta.url));

/** Starts `agent-teams studio` and answers it once it printed its URL. */
async function studio(args: string[]) {
  const cwd = tempFolder();
  const started = startCli(['studio', ...args], { cwd });
  let url: string | undefined;
  while (!url) {
    const printed = started.output().match(/^open (http\S+)$/m)?.[1];
    if (printed) url = printed;
    else if (started.child.exitCode !== null)
      throw new Error(`studio exited: ${(await started.done).stderr}`);
    else await new Promise((resolve) => started.child.stdout?.once('data', resolve));
  }
  return { ...started, url };
}

test('agent-teams studio serves the file’s teams on 127.0.0.1 behind the printed token, until Ctrl-C', async () => {
  const run = await studio([teamFile, '--store', 'store']);
  expect(run.output()).toContain('agent-teams studio on the store');
  expect(run.output()).toContain('teams newsroom-demo, slow');
  const url = new URL(run.url);
  expect(url.hostname).toBe('127.0.0.1');
  const teams = await fetch(new URL(`/api/teams${url.search}`, url));
  expect(teams.status).toBe(200);
  expect(((await teams.json()) as { name: string }[]).map((team) => team.name)).toEqual([
    'newsroom-demo',
    'slow',
    'review',
    'workshop',
    'chat',
  ]);
  expect((await fetch(new URL('/api/teams', url))).status).toBe(401);
  run.child.kill('SIGINT');
  expect((await run.done).code).toBe(0);
});

test('--host other than loopback warns; a bad --port is refused', async () => {
  const run = await studio(['--host', '0.0.0.0', '--store', 'store']);
  run.child.kill('SIGINT');
  const { stderr, stdout } = await run.done;
  expect(stderr).toContain('warning: listening on 0.0.0.0, not only this machine');
  expect(stdout).toContain('no team file (runs can be watched, not started)');
  const refused = await cli(['studio', '--port', 'eighty'], { cwd: tempFolder() });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('--port takes a port number (0-65535), not eighty');
});
