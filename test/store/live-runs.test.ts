import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { startScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { otherHostCases } from './other-host.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };
const holdRun = fileURLToPath(new URL('./fixtures/hold-run.mjs', import.meta.url));
const busyIn = (pid: number | undefined, runId: string | null | undefined) => ({
  code: 'team-busy',
  message: expect.stringContaining(`is running in process ${pid} (run ${runId})`),
});

describe('FileStore: one live run per team', () => {
  test('FileStores of one process on one folder are one store, whatever path they were given', async () => {
    const root = tempFolder();
    const first = new FileStore({ root });
    await first.createTeam('newsroom', setup);
    const link = path.join(tempFolder(), 'link');
    symlinkSync(root, link);
    const second = new FileStore({ root: link });
    const run = await first.startRun('newsroom');
    await expect(second.startRun('newsroom')).rejects.toMatchObject(busyIn(process.pid, run.runId));
    await expect(second.resumeRun('newsroom')).rejects.toMatchObject(busyIn(process.pid, run.runId));
    // Whichever of them leaves the run, it is left for both.
    await second.leaveRun('newsroom', run.runId as string);
    expect((await first.resumeRun('newsroom'))?.info.runId).toBe(run.runId);
    await expect(second.startRun('newsroom')).rejects.toMatchObject(busyIn(process.pid, run.runId));
  });

  test('leaving a run clears its runner, so any process may resume it at once', async () => {
    const root = tempFolder();
    const store = new FileStore({ root });
    await store.createTeam('newsroom', setup);
    const run = await store.startRun('newsroom');
    const record = path.join(root, `runs/${run.runId}/run.json`);
    expect(JSON.parse(readFileSync(record, 'utf8')).runner).toMatchObject({ pid: process.pid });
    await store.leaveRun('newsroom', run.runId as string);
    expect(JSON.parse(readFileSync(record, 'utf8'))).not.toHaveProperty('runner');
    await store.leaveRun('newsroom', run.runId as string);
    await expect(new FileStore({ root: path.join(root, '.') }).leaveRun('nobody', 'x')).rejects.toMatchObject(
      {
        code: 'team-not-found',
      },
    );
  });

  test('while another process runs the team, its roster and run stay as they are', async () => {
    const root = tempFolder();
    const store = new FileStore({ root });
    await store.createTeam('newsroom', setup);
    const runner = startScript(holdRun, [root, 'newsroom']);
    try {
      const runId = (await runner.line(/^started /)).slice('started '.length);
      const pid = runner.child.pid;
      const config = path.join(root, 'teams/newsroom/config.json');
      const before = readFileSync(config);
      await expect(
        store.createTeam('newsroom', { ...setup, members: ['researcher', 'writer', 'checker'] }),
      ).rejects.toMatchObject(busyIn(pid, runId));
      await expect(store.createTeam('newsroom', setup)).resolves.toMatchObject({ runId });
      expect(readFileSync(config).equals(before)).toBe(true);
      await expect(store.startRun('newsroom')).rejects.toMatchObject(busyIn(pid, runId));
      await expect(store.resumeRun('newsroom')).rejects.toMatchObject(busyIn(pid, runId));
      expect(readFileSync(config).equals(before)).toBe(true);
      // The runner leaves the run (its loop stopped) but lives on: the run may be resumed now.
      runner.say('leave');
      await runner.line(/^left$/);
      expect((await store.resumeRun('newsroom'))?.info.runId).toBe(runId);
    } finally {
      expect(await runner.end()).toBe(0);
    }
  }, 60_000);
});

otherHostCases('FileStore', () => {
  const root = tempFolder();
  return {
    flags: ['--store', root],
    store: new FileStore({ root }),
    leaseMs: 10_000,
    async renewedAt(runId) {
      const record = JSON.parse(readFileSync(path.join(root, `runs/${runId}/run.json`), 'utf8'));
      return Date.parse(record.runner.renewedAt);
    },
    async lapsed(runId) {
      return Date.now() - (await this.renewedAt(runId)) >= this.leaseMs;
    },
    async setRunner(runId, runner, ago) {
      const file = path.join(root, `runs/${runId}/run.json`);
      const record = JSON.parse(readFileSync(file, 'utf8'));
      const renewedAt = new Date(Date.now() - ago).toISOString();
      writeFileSync(file, JSON.stringify({ ...record, runner: { ...runner, renewedAt } }));
    },
  };
});
