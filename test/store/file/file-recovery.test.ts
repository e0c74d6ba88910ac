import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { thisProcess } from '../../../src/store/runner-identity.js';
import { tempFolder } from '../../helpers/temp-folder.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };

async function teamWithTask(root: string) {
  const store = new FileStore({ root });
  await store.createTeam('newsroom', setup);
  await store.transact('newsroom', ({ board }) => board.createTask({ title: 'Research' }, 'editor'));
  return store;
}

/**
 * A run whose second commit (a task completed, a message sent, their events) is cut off after
 * its journal: the inbox write fails half-way. Answers the run's id.
 */
async function cutCommit(root: string): Promise<string> {
  const store = await teamWithTask(root);
  const { runId } = await store.startRun('newsroom', { fresh: false });
  await store.transact('newsroom', ({ board }) => board.claimTask('researcher'));
  const inbox = path.join(root, 'teams/newsroom/inboxes/writer.json');
  mkdirSync(inbox);
  await expect(
    store.transact('newsroom', ({ board, mailbox }) => {
      board.updateTask('task-1', { status: 'completed', result: 'The moon pulls the sea' }, 'researcher');
      mailbox.send('researcher', 'writer', 'Notes are in task-1');
    }),
  ).rejects.toMatchObject({ code: 'store-io' });
  rmSync(inbox, { recursive: true });
  return runId as string;
}

describe('FileStore against broken files', () => {
  test.each([
    ['not JSON', '{ "id": "task-1", ', /task-1\.json is broken: it is not valid JSON/],
    ['a bad status', null, /task-1\.json is broken: it does not hold what it should at status/],
    ['another task', null, /task-1\.json is broken: it holds the task task-9 but is named for task-1/],
  ])('a task file holding %s is named in the error, and nothing changes', async (kind, text, message) => {
    const root = tempFolder();
    await teamWithTask(root);
    const file = path.join(root, 'tasks/newsroom/task-1.json');
    const task = JSON.parse(readFileSync(file, 'utf8'));
    const broken =
      text ??
      JSON.stringify(kind === 'a bad status' ? { ...task, status: 'done' } : { ...task, id: 'task-9' });
    writeFileSync(file, broken);
    const store = new FileStore({ root });
    await expect(
      store.transact('newsroom', ({ board }) => board.createTask({ title: 'More' }, 'editor')),
    ).rejects.toMatchObject({
      code: 'corrupt-file',
      message: expect.stringMatching(message),
    });
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(existsSync(path.join(root, 'tasks/newsroom/task-2.json'))).toBe(false);
  });

  test('a broken inbox or config is named too', async () => {
    for (const relative of ['teams/newsroom/inboxes/writer.json', 'teams/newsroom/config.json']) {
      const root = tempFolder();
      const store = await teamWithTask(root);
      await store.transact('newsroom', ({ mailbox }) => mailbox.send('editor', 'writer', 'hi'));
      writeFileSync(path.join(root, relative), '[{"half": ');
      await expect(new FileStore({ root }).transact('newsroom', () => 0)).rejects.toThrow(
        path.join(root, relative),
      );
    }
  });

  test('a torn commit stamp is rebuilt, and every store reloads the team', async () => {
    const root = tempFolder();
    const first = await teamWithTask(root);
    const run = await first.startRun('newsroom', { fresh: false });
    await first.transact('newsroom', ({ board }) => board.claimTask('writer'));
    writeFileSync(path.join(root, 'tasks/newsroom/.version'), '{"epoch":"x","vers');
    const second = new FileStore({ root });
    await second.transact('newsroom', ({ board }) =>
      board.updateTask('task-1', { status: 'completed', result: 'done' }, 'writer'),
    );
    // `first` holds an older copy; the new epoch makes it reload rather than trust it.
    expect(await first.transact('newsroom', ({ board }) => board.getTask('task-1')?.status)).toBe(
      'completed',
    );
    // The event count was read back from the log, so seqs go on where they were.
    const events = await second.readEvents(run.runId as string);
    expect(events.map((event) => event.seq)).toEqual([1, 2]);
  });

  test('a commit cut off after its journal is finished by the next lock holder', async () => {
    const root = tempFolder();
    await cutCommit(root);

    const next = new FileStore({ root });
    const state = await next.transact('newsroom', ({ board, mailbox }) => ({
      task: board.getTask('task-1'),
      unread: mailbox.unread('writer').map((message) => message.content),
    }));
    expect(state.task).toMatchObject({ status: 'completed', result: 'The moon pulls the sea' });
    expect(state.unread).toEqual(['Notes are in task-1']);
    // Recovered once: a later transaction replays nothing again.
    await next.transact('newsroom', ({ mailbox }) => mailbox.take('writer'));
    await new FileStore({ root }).transact('newsroom', ({ board }) =>
      board.createTask({ title: 'After' }, 'editor'),
    );
    const info = await next.getTeam('newsroom');
    const events = await next.readEvents(info?.runId as string);
    // Each event of the cut-off commit is in the log exactly once.
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [1, 'team:task-claimed'],
      [2, 'team:task-completed'],
      [3, 'team:message-sent'],
      [4, 'team:task-created'],
    ]);
  });

  test('a reader of the run’s events sees a commit cut off after its journal: it is committed, as a crashed run’s end is', async () => {
    const root = tempFolder();
    const runId = await cutCommit(root);
    // The first thing another process does is read the log (as `agent-teams logs` would).
    const events = await new FileStore({ root }).readEvents(runId);
    expect(events.map((event) => event.type)).toEqual([
      'team:task-claimed',
      'team:task-completed',
      'team:message-sent',
    ]);
  });

  test('a torn last line in the event log is not read as an event', async () => {
    const root = tempFolder();
    const store = await teamWithTask(root);
    const run = await store.startRun('newsroom', { fresh: false });
    await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
    const log = path.join(root, `runs/${run.runId}/events.jsonl`);
    writeFileSync(log, `${readFileSync(log, 'utf8')}{"seq":2,"ty`);
    expect((await store.readEvents(run.runId as string)).map((event) => event.seq)).toEqual([1]);
  });
});

describe('FileStore lock', () => {
  test('a stale lock left by a dead process is taken over', async () => {
    const root = tempFolder();
    await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const store = new FileStore({ root, lock: { stale: 5_000 } });
    expect(await store.transact('newsroom', ({ board }) => board.claimTask('writer')?.id)).toBe('task-1');
    expect(existsSync(lock)).toBe(false);
  });

  test('a lock held past the timeout is a clear error naming the lock, and nothing changes', async () => {
    const root = tempFolder();
    await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    mkdirSync(lock);
    const store = new FileStore({ root, lock: { timeout: 300 } });
    await expect(store.transact('newsroom', ({ board }) => board.claimTask('writer'))).rejects.toMatchObject({
      code: 'store-locked',
      message: expect.stringContaining(lock),
    });
    rmSync(lock, { recursive: true });
    expect(await store.transact('newsroom', ({ board }) => board.getTask('task-1')?.status)).toBe('pending');
  });
});

describe('FileStore lock held by a process that died', () => {
  const deadPid = () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    return Number(child.stdout.toString());
  };

  test('a fresh lock whose holder on this machine is gone is taken over at once', async () => {
    const root = tempFolder();
    await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    mkdirSync(lock);
    const born = String(statSync(lock, { bigint: true }).birthtimeNs);
    writeFileSync(`${lock}-owner`, JSON.stringify({ ...thisProcess(), pid: deadPid(), token: 'gone', born }));
    // A timeout far below the 10 s staleness: only the dead-owner takeover can pass it.
    const store = new FileStore({ root, lock: { timeout: 1_000 } });
    expect(await store.transact('newsroom', ({ board }) => board.claimTask('writer')?.id)).toBe('task-1');
  });

  test('the lock names its holder while it is held, and is a link to the key file the holder leaves no trace of once closed', async () => {
    const root = tempFolder();
    const store = await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    const seen = await store.transact('newsroom', ({ board }) => {
      board.claimTask('writer');
      return { holder: JSON.parse(readFileSync(lock, 'utf8')), links: statSync(lock).nlink };
    });
    expect(seen.holder).toMatchObject({ pid: process.pid, host: thisProcess().host });
    expect(seen.links).toBe(2);
    expect(existsSync(lock)).toBe(false);
    await store.close();
    expect(readdirSync(path.join(root, 'tasks/newsroom')).filter((name) => name.startsWith('.lock'))).toEqual(
      [],
    );
  });

  test('a fresh lock that names a holder on this machine that is gone is taken over at once', async () => {
    const root = tempFolder();
    await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: deadPid(), token: 'gone' }));
    // A timeout far below the 10 s staleness: only the dead-holder takeover can pass it.
    const store = new FileStore({ root, lock: { timeout: 1_000 } });
    expect(await store.transact('newsroom', ({ board }) => board.claimTask('writer')?.id)).toBe('task-1');
  });

  test('a fresh lock that names a live holder, or one on another machine, is waited for', async () => {
    const here = thisProcess();
    for (const holder of [
      here,
      { pid: deadPid(), host: 'another-machine', machine: 'another-machine b pid:[1]' },
    ]) {
      const root = tempFolder();
      await teamWithTask(root);
      writeFileSync(path.join(root, 'tasks/newsroom/.lock'), JSON.stringify(holder));
      const store = new FileStore({ root, lock: { timeout: 300 } });
      await expect(
        store.transact('newsroom', ({ board }) => board.claimTask('writer')),
      ).rejects.toMatchObject({
        code: 'store-locked',
      });
    }
  });

  test('the key file a killed process left is removed by the next process to take the lock', async () => {
    const root = tempFolder();
    await (await teamWithTask(root)).close();
    const folder = path.join(root, 'tasks/newsroom');
    const pid = deadPid();
    const left = path.join(folder, `.lock-key-${pid}-0a0b0c0d0e0f`);
    writeFileSync(left, JSON.stringify({ ...thisProcess(), pid, token: 'gone' }));
    const elsewhere = path.join(folder, `.lock-key-${pid}-0f0e0d0c0b0a`);
    writeFileSync(
      elsewhere,
      JSON.stringify({ pid, host: 'another-machine', machine: 'another-machine b pid:[1]' }),
    );
    const store = new FileStore({ root });
    await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
    expect(existsSync(left)).toBe(false);
    // A process elsewhere is never known dead: its key stays.
    expect(existsSync(elsewhere)).toBe(true);
  });

  test('a lock held by a live process, by one on another machine (of this host name too), or of an earlier holder, is waited for', async () => {
    const here = thisProcess();
    for (const owner of [
      here,
      { pid: deadPid(), host: 'another-machine', machine: 'another-machine some-boot pid:[1]' },
      // Another machine of the same host name (another kernel): its pid means nothing here.
      { pid: deadPid(), host: here.host, machine: `${here.host} another-boot pid:[1]` },
      // A record with no machine (an older version's): its lock goes stale in time.
      { pid: deadPid(), host: here.host },
      { ...here, pid: deadPid(), born: '1' },
    ]) {
      const root = tempFolder();
      await teamWithTask(root);
      const lock = path.join(root, 'tasks/newsroom/.lock');
      mkdirSync(lock);
      const born = String(statSync(lock, { bigint: true }).birthtimeNs);
      writeFileSync(`${lock}-owner`, JSON.stringify({ born, ...owner }));
      const store = new FileStore({ root, lock: { timeout: 300 } });
      await expect(
        store.transact('newsroom', ({ board }) => board.claimTask('writer')),
      ).rejects.toMatchObject({
        code: 'store-locked',
      });
    }
  });
});

describe('FileStore lock queue', () => {
  test('a waiter behind the ticket of a dead process skips it, and gets the lock when it is released', async () => {
    const root = tempFolder();
    await teamWithTask(root);
    const lock = path.join(root, 'tasks/newsroom/.lock');
    mkdirSync(lock);
    const queue = `${lock}-queue`;
    mkdirSync(queue);
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    const stale = path.join(queue, `000000000000001-${dead}-1`);
    writeFileSync(stale, '');
    const store = new FileStore({ root, lock: { timeout: 5_000 } });
    const claimed = store.transact('newsroom', ({ board }) => board.claimTask('writer')?.id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(stale)).toBe(false);
    rmSync(lock, { recursive: true });
    expect(await claimed).toBe('task-1');
    expect(readdirSync(queue)).toEqual([]);
  });
});
