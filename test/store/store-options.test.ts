import { existsSync, readdirSync } from 'node:fs';
import { FileStore, MemoryStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';

test('a store refuses an option it does not have, naming it and listing the known ones', () => {
  expect(() => new MemoryStore({ clock: () => new Date() } as never)).toThrow(
    'Unknown option "clock" for a MemoryStore; the known ones are now.',
  );
  expect(() => new FileStore({ dir: 'x' } as never)).toThrow(
    'Unknown option "dir" for a FileStore; the known ones are root, now, lock.',
  );
  expect(() => new FileStore({ lock: { retries: 3 } } as never)).toThrow(
    'Unknown option "retries" for the FileStore lock; the known ones are stale, timeout.',
  );
  expect(() => new FileStore({ lock: { stale: -1 } })).toThrow(
    /lock.stale of a FileStore must be a whole number/,
  );
});

test('an empty root is refused: it would put the store in whatever folder the process runs in', () => {
  const cwd = process.cwd();
  expect(() => new FileStore({ root: '' })).toThrow(
    'root, the folder of a FileStore, must be a non-empty path.',
  );
  expect(() => new FileStore({ root: '  ' })).toThrow(/non-empty path/);
  expect(process.cwd()).toBe(cwd);
});

test('startRun and readEvents refuse options they do not have, and write nothing', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  await store.createTeam('t', { lead: 'lead', members: ['a'] });
  await expect(store.startRun('t', { fersh: true } as never)).rejects.toThrow(
    /Unknown option "fersh" for startRun/,
  );
  expect(existsSync(`${root}/runs`) ? readdirSync(`${root}/runs`) : []).toEqual([]);
  const { runId } = await store.startRun('t');
  await expect(store.readEvents(runId as string, { after: 1 } as never)).rejects.toThrow(
    /Unknown option "after" for readEvents/,
  );
});
