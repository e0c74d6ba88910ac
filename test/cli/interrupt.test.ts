import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const slowTeam = fileURLToPath(new URL('./fixtures/slow-team.ts', import.meta.url));

test('Ctrl-C stops a run cleanly, and resume finishes it without redoing anything', async () => {
  const cwd = tempFolder();
  const running = startCli(['run', slowTeam, '--input', 'Do four things'], { cwd });
  while (!/completed task-\d/.test(running.output())) {
    if (running.child.exitCode !== null) throw new Error(`the run ended early:\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  running.child.kill('SIGINT');
  const stopped = await running.done;
  expect(stopped.code).toBe(130);
  expect(stopped.stderr).toContain('Stopping the run cleanly');
  expect(stopped.stdout).toContain(`Continue it with: npx agent-teams resume ${slowTeam}`);
  expect(stopped.stdout).toMatch(/aborted · \d\/4 tasks/);

  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  const before = await store.transact('slow', ({ board }) => board.listTasks());
  expect(before.filter((task) => task.status === 'in_progress')).toEqual([]);
  const done = before.filter((task) => task.status === 'completed');
  expect(done.length).toBeGreaterThan(0);
  expect(done.length).toBeLessThan(4);

  const resumed = await cli(['resume', slowTeam], { cwd });
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('resumed');
  expect(resumed.stdout).toContain('All four done.');
  const after = await new FileStore({ root: path.join(cwd, '.agent-teams') }).transact('slow', ({ board }) =>
    board.listTasks(),
  );
  expect(after.map((task) => task.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  for (const task of done) expect(after.find((other) => other.id === task.id)).toEqual(task);
  const info = await store.getTeam('slow');
  const events = await store.readEvents(info?.runId as string);
  for (const task of after) {
    expect(
      events.filter((event) => event.type === 'team:task-completed' && event.data.task.id === task.id),
    ).toHaveLength(1);
  }

  const again = await cli(['resume', slowTeam], { cwd });
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('nothing to resume: the last run of slow finished');
});
