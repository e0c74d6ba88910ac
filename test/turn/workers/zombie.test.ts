import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { startCli } from '../../helpers/cli.js';
import { tempFolder } from '../../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../../store/postgres/database.js';

// A zombie worker: stopped (SIGSTOP) inside a turn's file write, just before the file is
// written, past its lease on the turn, while another worker redoes the turn and the run
// completes; then continued (SIGCONT). Its store writes were refused already; its file write
// must be too: the workspace keeps what the worker that holds the turn wrote. Real processes:
// `agent-teams run` and two `agent-teams worker`.
const reachable = await postgresReachable();
const stores = postgresStores();
const teamFile = fileURLToPath(new URL('./fixtures/zombie-team.ts', import.meta.url));
const children: ReturnType<typeof startCli>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    child.child.kill('SIGCONT');
    child.child.kill('SIGKILL');
  }
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 60_000) {
      const said = children.map((child) => `${child.output()}${child.errors()}`).join('\n---\n');
      throw new Error(`gave up waiting for ${what}; the processes said:\n${said}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const TRIALS = Number(process.env.ZOMBIE_TRIALS ?? 5);

/** One trial; answers whether the zombie's write landed after the turn was redone. */
async function trial(): Promise<boolean> {
  const schema = stores.make().schema;
  const workspace = tempFolder();
  const out = path.join(workspace, 'out.txt');
  const mine: ReturnType<typeof startCli>[] = [];
  const start = (args: string[]) => {
    const child = startCli([...args, '--postgres', POSTGRES_URL, '--schema', schema], {
      cwd: tempFolder(),
      env: { ZOMBIE_WORKSPACE: workspace },
    });
    children.push(child);
    mine.push(child);
    return child;
  };
  const zombie = start(['worker', teamFile]);
  await until(() => zombie.output().includes('takes the turns'), 'the first worker');
  const run = start(['run', teamFile, '--input', 'Write it', '--json']);
  await until(
    () => zombie.output().includes(`m decides in ${zombie.child.pid}`),
    'm’s write on the first worker',
  );
  // Stopped inside its write's tool call (its permission classifier deciding), before the file is written.
  zombie.child.kill('SIGSTOP');
  const rescuer = start(['worker', teamFile]);
  const done = await run.done;
  expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
  expect(rescuer.output()).toMatch(/z: m turn 1 \(task on task-1\), attempt 2 done/);
  const written = `written by ${rescuer.child.pid}`;
  expect(readFileSync(out, 'utf8')).toBe(written);
  // Continued: its write goes on, and its turn finds it lost.
  zombie.child.kill('SIGCONT');
  await until(
    () => /z: m turn 1 \(task on task-1\) (stale|failed)/.test(zombie.output()),
    'the zombie’s turn to end',
  );
  // Stopped by its signal, it exits once nothing of its is pending: a write still on its way has landed.
  zombie.child.kill('SIGTERM');
  await zombie.done;
  for (const child of mine) child.child.kill('SIGKILL');
  return readFileSync(out, 'utf8') !== written;
}

describe.skipIf(!reachable)('a zombie worker’s file writes', () => {
  test(`${TRIALS} trials: a worker stopped past its lease and continued after another redid its turn writes no file`, async () => {
    // Two trials at a time, each on its own schema and workspace: a trial mostly waits for a
    // lease to run out, and holds some 15 of the server's connections (three processes).
    const outcomes: boolean[] = [];
    let running = 0;
    const lane = async () => {
      while (outcomes.length + running < TRIALS) {
        running++;
        const outcome = await trial().finally(() => running--);
        outcomes.push(outcome);
      }
    };
    await Promise.all([lane(), lane()]);
    const stale = outcomes.filter(Boolean).length;
    console.log(`zombie writes: ${stale} of ${TRIALS} zombies wrote after their turn was redone`);
    expect(stale).toBe(0);
  }, 300_000);
});
