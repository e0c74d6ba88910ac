import * as fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, isTeamError } from 'agent-teams';
import { expect, test } from 'vitest';
import { releasedLocksRemoved } from '../../../src/store/file/file-lock.js';
import { runScript } from '../../helpers/child.js';
import { tempFolder } from '../../helpers/temp-folder.js';

// Transactions that only read run on the team as last committed, without the lock, and
// write nothing; the ones that change something still take it.

/** Every file and folder under `root` with its modification time and size. */
function snapshot(root: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      const stat = fs.statSync(file, { bigint: true });
      seen.set(file, `${stat.mtimeNs} ${stat.size}`);
      if (entry.isDirectory()) walk(file);
    }
  };
  const stat = fs.statSync(root, { bigint: true });
  seen.set(root, `${stat.mtimeNs}`);
  walk(root);
  return seen;
}

async function seeded(root: string): Promise<FileStore> {
  const store = new FileStore({ root });
  await store.createTeam('t', { lead: 'lead', members: ['a1', 'a2'] });
  await store.transact('t', ({ board, mailbox }) => {
    for (const id of ['a', 'b', 'c', 'd']) board.createTask({ id, title: id }, 'lead');
    mailbox.send('lead', 'a1', 'hello');
  });
  return store;
}

const reads = async (store: FileStore) => [
  await store.transact('t', ({ board }) => board.listTasks().map((task) => task.id)),
  await store.transact('t', ({ board }) => board.counts().total),
  await store.transact('t', ({ mailbox }) => mailbox.messages('a1').map((message) => message.content)),
];

test('a transaction that only reads writes nothing, not even a lock, in this process or a new one', async () => {
  const root = tempFolder();
  const writer = await seeded(root);
  // The seeding's last lock folder is removed in the background: gone before the picture.
  await releasedLocksRemoved();
  const before = snapshot(root);
  // Folder times move when an entry is added or removed: a lock taken and released shows.
  expect(await reads(writer)).toEqual([['a', 'b', 'c', 'd'], 4, ['hello']]);
  expect(await reads(new FileStore({ root }))).toEqual([['a', 'b', 'c', 'd'], 4, ['hello']]);
  expect(snapshot(root)).toEqual(before);
  await writer.transact('t', ({ board }) => board.claimTask('a1'));
  expect(snapshot(root)).not.toEqual(before);
});

test('reads go on while another process holds the lock; changes wait for it', async () => {
  const root = tempFolder();
  await seeded(root);
  const store = new FileStore({ root, lock: { timeout: 300 } });
  expect(await store.transact('t', ({ board }) => board.counts().total)).toBe(4);
  await store.transact('t', ({ board }) => board.updateTask('a', { note: 'mine' }, 'lead'));
  fs.mkdirSync(path.join(root, 'tasks', 't', '.lock')); // held, fresh: as by a live writer
  expect(await store.transact('t', ({ board }) => board.getTask('a')?.note)).toBe('mine');
  const refused = await store
    .transact('t', ({ board }) => board.claimTask('a1'))
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(isTeamError(refused, 'store-locked')).toBe(true);
});

test('a transaction that tries to change something, even one that catches the refusal, runs under the lock', async () => {
  const root = tempFolder();
  const store = await seeded(root);
  const claimed = await store.transact('t', ({ board }) => {
    try {
      return board.claimTask('a1')?.id;
    } catch {
      return 'refused';
    }
  });
  expect(claimed).toBe('a');
  expect(await new FileStore({ root }).transact('t', ({ board }) => board.heldBy('a1')?.id)).toBe('a');
});

test('reads racing another process’s commits see each commit whole, and the last one at the end', async () => {
  const root = tempFolder();
  await seeded(root);
  const reader = new FileStore({ root });
  const count = 40;
  const writing = runScript(fileURLToPath(new URL('../fixtures/note-writer.mjs', import.meta.url)), [
    root,
    't',
    String(count),
  ]);
  let done = false;
  void writing.finally(() => {
    done = true;
  });
  const notes = () =>
    reader.transact('t', ({ board }) =>
      ['a', 'b', 'c', 'd'].map((id) => Number(board.getTask(id)?.note ?? 0)),
    );
  let last = [0, 0, 0, 0];
  let looked = 0;
  while (!done) {
    const [a, b, c, d] = (await notes()) as [number, number, number, number];
    // a is written before b, c with d in one commit: never b ahead of a, never c apart from d.
    expect(b === a || b === a - 1).toBe(true);
    expect(c).toBe(d);
    // Never back in time.
    expect(a).toBeGreaterThanOrEqual(last[0] as number);
    expect(c).toBeGreaterThanOrEqual(last[2] as number);
    last = [a, b, c, d];
    looked++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await writing;
  expect(await notes()).toEqual([count, count, count, count]);
  expect(looked).toBeGreaterThan(0);
}, 120_000);
