import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../store/postgres/database.js';

// `agent-teams worker` stops when it is told to: SIGTERM or SIGINT to it, and SIGTERM to the
// `npx` that started it (npm dies without passing the signal on; the worker, orphaned, stops).

const root = fileURLToPath(new URL('../..', import.meta.url));
const teamFile = fileURLToPath(new URL('../turn/workers/fixtures/worker-team.ts', import.meta.url));
const reachable = await postgresReachable();
const stores = postgresStores();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts a worker with `command` (through npx, or the build directly); answers the worker's own pid once it took the team. */
async function startWorker(command: string[], schema: string) {
  const [program, ...args] = command as [string, ...string[]];
  const child = spawn(
    program,
    [...args, 'worker', teamFile, '--postgres', POSTGRES_URL, '--schema', schema],
    {
      cwd: root,
      // Without ignore-scripts, npx installs this folder into its cache, and installing a folder
      // runs its `prepare`: `npm run build`, which deletes dist/ and builds it again (a minute of
      // CPU) while the other test files run the command from it. The test setup built it.
      env: {
        ...process.env,
        npm_config_cache: tempFolder('agent-teams-npx-cache-'),
        npm_config_ignore_scripts: 'true',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  for (let waited = 0; !/worker (\d+) takes the turns/.test(output); waited += 50) {
    if (waited > 60_000) throw new Error(`the worker did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = Number(output.match(/worker (\d+) takes the turns/)?.[1]);
  return { child, pid, output: () => output };
}

/** Resolves once the process is gone; one that never goes fails its test by the test's time limit (no clock read here). */
async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe.skipIf(!reachable)('agent-teams worker stops when told', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s to it',
    async (signal) => {
      const worker = await startWorker(
        [process.execPath, fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))],
        stores.make().schema,
      );
      worker.child.kill(signal);
      await gone(worker.pid);
      expect(worker.output()).toContain(`worker ${worker.pid} stopped`);
    },
    60_000,
  );

  test('on SIGTERM to the npx that started it', async () => {
    const worker = await startWorker(['npx', '--no-install', 'agent-teams'], stores.make().schema);
    expect(worker.pid).not.toBe(worker.child.pid);
    worker.child.kill('SIGTERM');
    await gone(worker.pid);
  }, 60_000);
});
