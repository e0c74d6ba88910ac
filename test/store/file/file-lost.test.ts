import {
  appendFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { startScript } from '../../helpers/child.js';
import { cli } from '../../helpers/cli.js';
import { seeds } from '../../helpers/seeds.js';
import { tempFolder } from '../../helpers/temp-folder.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const teamFile = fixture('newsroom-team.ts');

const setup = { lead: 'editor', members: ['researcher', 'writer'] };

/**
 * A team with a run cut off (as by a crash): two tasks, one in progress, an unread message
 * for the writer, and five events logged. Answers the run id and the log's path.
 */
async function cutOffRun(root: string) {
  const store = new FileStore({ root });
  await store.createTeam('newsroom', setup);
  const { runId } = await store.startRun('newsroom');
  await store.transact('newsroom', ({ emit }) =>
    emit({ type: 'team:start', data: { lead: 'editor', members: setup.members, input: 'Tides' } }),
  );
  await store.transact('newsroom', ({ board }) => {
    board.createTask({ title: 'Research tides' }, 'editor');
    board.createTask({ title: 'Write' }, 'editor');
  });
  await store.transact('newsroom', ({ board }) => board.claimTask('researcher'));
  await store.transact('newsroom', ({ mailbox }) => mailbox.send('researcher', 'writer', 'Use metric units'));
  await store.leaveRun('newsroom', runId as string);
  await store.close();
  return { runId: runId as string, log: path.join(root, `runs/${runId}/events.jsonl`) };
}

/**
 * Every file of the store with its content, but the lock's own bookkeeping (written by every
 * call): its folder, owner, queue and the key files of the processes that took it, and a
 * released lock folder being removed in the background (`.lock.<pid>.<n>.released`), which is
 * not entered as it may vanish meanwhile.
 */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (/^\.lock(-owner|-queue|-key-.*|\..*\.released)?$/.test(entry.name)) continue;
      const inside = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(inside);
      else if (entry.isFile()) files[inside] = readFileSync(path.join(root, inside), 'utf8');
    }
  };
  walk('');
  return files;
}

const seqs = (events: readonly { seq: number }[]) => events.map((event) => event.seq);

/** Every call that needs the lost file fails with `corrupt-file` naming it, and changes no file. */
async function expectRefused(root: string, file: string, calls: ((store: FileStore) => Promise<unknown>)[]) {
  const before = snapshot(root);
  for (const call of calls) {
    await expect(call(new FileStore({ root }))).rejects.toMatchObject({
      code: 'corrupt-file',
      message: expect.stringContaining(file),
    });
  }
  expect(snapshot(root)).toEqual(before);
}

const transact = (store: FileStore) =>
  store.transact('newsroom', ({ board }) => board.createTask({ title: 'More' }, 'editor'));
const resume = (store: FileStore) => store.resumeRun('newsroom');

describe('FileStore: a file its stamp records is never read as empty', () => {
  test('a deleted task file is named, with what to do, and nothing changes', async () => {
    const root = tempFolder();
    await cutOffRun(root);
    const file = path.join(root, 'tasks/newsroom/task-2.json');
    rmSync(file);
    await expectRefused(root, file, [transact, resume]);
    await expect(transact(new FileStore({ root }))).rejects.toThrow(/restore it from a backup/i);
  });

  test('a deleted inbox with an unread message is named, and nothing changes', async () => {
    const root = tempFolder();
    await cutOffRun(root);
    const file = path.join(root, 'teams/newsroom/inboxes/writer.json');
    rmSync(file);
    await expectRefused(root, file, [transact, resume, (store) => store.transact('newsroom', () => 0)]);
  });

  test('a store that re-reads only what changed finds the lost file too', async () => {
    const root = tempFolder();
    await cutOffRun(root);
    const first = new FileStore({ root });
    await first.transact('newsroom', () => 0); // holds the team in its cache
    await new FileStore({ root }).transact('newsroom', ({ mailbox }) =>
      mailbox.send('editor', 'writer', 'More'),
    );
    const file = path.join(root, 'teams/newsroom/inboxes/writer.json');
    rmSync(file);
    await expect(first.transact('newsroom', ({ mailbox }) => mailbox.take('writer'))).rejects.toMatchObject({
      code: 'corrupt-file',
      message: expect.stringContaining(file),
    });
  });

  test.each([
    ['deleted', (log: string) => rmSync(log)],
    ['emptied', (log: string) => writeFileSync(log, '')],
    ['cut in the middle', (log: string) => truncateSync(log, Math.floor(statSync(log).size / 2))],
  ])(
    'an event log %s is named by readEvents, resumeRun and transact, and nothing changes',
    async (_, lose) => {
      const root = tempFolder();
      const { runId, log } = await cutOffRun(root);
      lose(log);
      await expectRefused(root, log, [(store) => store.readEvents(runId), resume, transact]);
      await expect(new FileStore({ root }).readEvents(runId, { afterSeq: 4 })).rejects.toMatchObject({
        code: 'corrupt-file',
      });
    },
  );

  test('a process whose copy of the team is current still finds its log gone before it appends', async () => {
    const root = tempFolder();
    const { log } = await cutOffRun(root);
    const store = new FileStore({ root });
    await store.transact('newsroom', () => 0);
    rmSync(log);
    await expect(transact(store)).rejects.toMatchObject({
      code: 'corrupt-file',
      message: expect.stringContaining(log),
    });
    expect(() => statSync(log)).toThrow();
  });

  test("an earlier run's log that is gone is named, while its record is there", async () => {
    const root = tempFolder();
    const { runId, log } = await cutOffRun(root);
    await new FileStore({ root }).startRun('newsroom');
    rmSync(log);
    await expect(new FileStore({ root }).readEvents(runId)).rejects.toMatchObject({ code: 'corrupt-file' });
    expect(await new FileStore({ root }).readEvents('newsroom-20000101T000000Z-abcdef')).toEqual([]);
  });

  test('a run whose record (run.json) is gone is named as missing by resumeRun, never as finished; nothing changes', async () => {
    const root = tempFolder();
    const { runId } = await cutOffRun(root);
    const record = path.join(root, `runs/${runId}/run.json`);
    rmSync(record);
    await expectRefused(root, record, [resume]);
    await expect(resume(new FileStore({ root }))).rejects.toThrow(
      /is missing .*cannot be resumed without it/,
    );
  });

  test('agent-teams resume says the record is missing, with its path, and the task list stays', async () => {
    const root = tempFolder();
    const { runId } = await cutOffRun(root);
    const record = path.join(root, `runs/${runId}/run.json`);
    rmSync(record);
    const before = snapshot(root);
    const run = await cli(['resume', teamFile, '--store', root], { cwd: tempFolder() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The file ${record} is missing`);
    expect(run.stderr).not.toContain('finished');
    expect(snapshot(root)).toEqual(before);
  });

  test('a fresh run is the way out: it starts on a team whose files were lost', async () => {
    const root = tempFolder();
    const { log } = await cutOffRun(root);
    rmSync(path.join(root, 'tasks/newsroom/task-1.json'));
    rmSync(log);
    const store = new FileStore({ root });
    const { runId } = await store.startRun('newsroom');
    await transact(store);
    const again = new FileStore({ root });
    expect(
      await again.transact('newsroom', ({ board }) => board.listTasks().map((task) => task.title)),
    ).toEqual(['More']);
    expect(seqs(await again.readEvents(runId as string))).toEqual([1]);
  });
});

describe('FileStore: what a crash leaves still opens', () => {
  test('a last line torn in the middle of an append is no event, and is cut before the next', async () => {
    const root = tempFolder();
    const { runId, log } = await cutOffRun(root);
    const whole = readFileSync(log, 'utf8');
    appendFileSync(log, '{"type":"team:message-sent","seq":6,"da');
    const store = new FileStore({ root });
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3, 4, 5]);
    expect(seqs((await store.resumeRun('newsroom'))?.events ?? [])).toEqual([1, 2, 3, 4, 5]);
    await transact(store);
    expect(readFileSync(log, 'utf8').startsWith(whole)).toBe(true);
    expect(seqs(await new FileStore({ root }).readEvents(runId))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('a store written by the previous version, with no records in its stamp, opens; its first commit adds them', async () => {
    const root = tempFolder();
    const { runId, log } = await cutOffRun(root);
    const version = path.join(root, 'tasks/newsroom/.version');
    const { epoch, version: number, eventSeq } = JSON.parse(readFileSync(version, 'utf8'));
    // The previous version's stamp, written before the log by a commit of events alone that
    // a crash cut off: it counts a sixth event the log never got.
    writeFileSync(version, JSON.stringify({ epoch, version: number, eventSeq: eventSeq + 1 }));
    const store = new FileStore({ root });
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3, 4, 5]);
    expect(await store.transact('newsroom', ({ mailbox }) => mailbox.unread('writer').length)).toBe(1);
    await transact(store);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3, 4, 5, 7]);
    // From that commit on, a lost file is named.
    rmSync(path.join(root, 'teams/newsroom/inboxes/writer.json'));
    await expect(transact(new FileStore({ root }))).rejects.toMatchObject({ code: 'corrupt-file' });
    truncateSync(log, 0);
    await expect(new FileStore({ root }).readEvents(runId)).rejects.toMatchObject({ code: 'corrupt-file' });
  });
});

describe('FileStore: a process killed in the middle of a commit', () => {
  /** Runs the crash-at fixture on a team until it stops before its `at`-th write, and kills it there. */
  async function killAt(root: string, at: number): Promise<void> {
    const child = startScript(fixture('crash-at.mjs'), [root, 'loop', String(at)]);
    await child.line(/^stopped /);
    child.child.kill('SIGKILL');
    await child.end();
  }
  const team = { lead: 'lead', members: ['worker0', 'worker1'] };
  // A lock the child took but had not yet signed is taken over once stale: soon, here.
  const next = (root: string) => new FileStore({ root, lock: { stale: 2_000 } });

  // With a run, a few commits of each kind (events alone, a task, a message) hold 24 writes:
  // the child stops dead before the seed-th, or, on an append to the log, tears the line.
  test.concurrent.each(seeds(24))(
    'leaves a store that opens whole, every logged event counted once (seed %i)',
    async (seed) => {
      const root = tempFolder();
      const store = new FileStore({ root });
      await store.createTeam('loop', team);
      const { runId } = await store.startRun('loop');
      await store.leaveRun('loop', runId as string);
      await killAt(root, seed);

      const after = next(root);
      const { tasks, messages } = await after.transact('loop', ({ board, mailbox }) => ({
        tasks: board.listTasks().length,
        messages: mailbox.unread('worker0').length + mailbox.unread('worker1').length,
      }));
      const logged = await after.readEvents(runId as string);
      expect(seqs(logged)).toEqual(logged.map((_, index) => index + 1));
      // All of a commit or none of it: each task and message has its event, and no more.
      expect(logged.filter((event) => event.type === 'team:task-created')).toHaveLength(tasks);
      expect(logged.filter((event) => event.type === 'team:message-sent')).toHaveLength(messages);
      const stamp = JSON.parse(readFileSync(path.join(root, 'tasks/loop/.version'), 'utf8'));
      expect(stamp.eventSeq).toBe(logged.length);
      // The next commit goes on from there, and another process reads it all.
      await after.transact('loop', ({ emit }) => emit({ type: 'team:resumed', data: { requeued: [] } }));
      const other = new FileStore({ root });
      expect(seqs(await other.readEvents(runId as string))).toEqual([...seqs(logged), logged.length + 1]);
      expect(await other.resumeRun('loop')).toBeDefined();
    },
    60_000,
  );

  // Without a run, writes 14 to 20 are the commit of a message to a new inbox: one file,
  // but a new one, so the stamp that records it must not be written before it.
  test.concurrent.each([14, 15, 16, 17, 18, 19, 20])(
    'without a run, leaves every inbox the stamp records in place (write %i)',
    async (at) => {
      const root = tempFolder();
      await new FileStore({ root }).createTeam('loop', team);
      await killAt(root, at);
      const unread = await next(root).transact('loop', ({ mailbox }) => mailbox.unread('worker1').length);
      expect(unread).toBeLessThanOrEqual(1);
      await new FileStore({ root }).transact('loop', ({ mailbox }) =>
        mailbox.send('lead', 'worker1', 'More'),
      );
      expect(
        await new FileStore({ root }).transact('loop', ({ mailbox }) => mailbox.unread('worker1').length),
      ).toBe(unread + 1);
    },
    60_000,
  );
});
