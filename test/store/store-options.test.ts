import { existsSync, readdirSync } from 'node:fs';
import { FileStore, MemoryStore } from 'agent-teams';
import { PostgresStore } from 'agent-teams/postgres';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';

test('a store refuses an option it does not have, naming it and listing the known ones', () => {
  expect(() => new MemoryStore({ clock: () => new Date() } as never)).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "clock" for a MemoryStore; the known ones are now.',
    }),
  );
  expect(() => new FileStore({ dir: 'x' } as never)).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "dir" for a FileStore; the known ones are root, now, lock.',
      details: { option: 'dir', known: ['root', 'now', 'lock'] },
    }),
  );
  expect(() => new FileStore({ lock: { retries: 3 } } as never)).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "retries" for lock of a FileStore; the known ones are stale, timeout.',
      details: { option: 'lock.retries', known: ['stale', 'timeout'] },
    }),
  );
  expect(() => new FileStore({ lock: { stale: -1 } })).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message:
        'lock.stale of a FileStore must be a whole number of ms from 1 to 2147483647 (about 24.8 days), not -1.',
      details: { option: 'lock.stale' },
    }),
  );
  expect(() => new MemoryStore({ now: 'today' } as never)).toThrow(
    'now of a MemoryStore must be a function answering a Date, not "today".',
  );
  expect(() => new FileStore({ lock: 5 } as never)).toThrow(
    'lock of a FileStore must be an object: { stale?, timeout? }, not 5.',
  );
  expect(() => new FileStore({ now: 'today' } as never)).toThrow(
    'now of a FileStore must be a function answering a Date, not "today".',
  );
});

test('a PostgresStore refuses a bad or unknown option before it connects', () => {
  const connectionString = 'postgres://127.0.0.1:1/none';
  expect(() => new PostgresStore({ connectionString, pool: 3 } as never)).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message:
        'Unknown option "pool" for a PostgresStore; the known ones are connectionString, schema, now, poolSize, synchronousCommit.',
    }),
  );
  expect(() => new PostgresStore({} as never)).toThrow(
    'connectionString of a PostgresStore is missing: it must be a non-empty string (postgres://…).',
  );
  expect(() => new PostgresStore({ connectionString, schema: 'My-Schema' })).toThrow(
    'schema of a PostgresStore must be lower-case letters, digits and _ (at most 48, not starting with a digit), not "My-Schema".',
  );
  for (const poolSize of [0, 1001, 1e9, 2.5])
    expect(() => new PostgresStore({ connectionString, poolSize })).toThrow(
      `poolSize of a PostgresStore must be a whole number from 1 to 1000, not ${poolSize}.`,
    );
  expect(() => new PostgresStore({ connectionString, synchronousCommit: 'off' } as never)).toThrow(
    'synchronousCommit of a PostgresStore must be true or false, not "off".',
  );
});

test('an empty root is refused: it would put the store in whatever folder the process runs in', () => {
  const cwd = process.cwd();
  expect(() => new FileStore({ root: '' })).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'root of a FileStore must be a non-empty path, not "".',
    }),
  );
  expect(() => new FileStore({ root: '  ' })).toThrow(/non-empty path/);
  expect(process.cwd()).toBe(cwd);
});

test('startRun and readEvents refuse options they do not have, and write nothing', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  await store.createTeam('t', { lead: 'lead', members: ['a'] });
  await expect(store.startRun('t', { fersh: true } as never)).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "fersh" for startRun; the known ones are fresh.',
    }),
  );
  await expect(store.startRun('t', { fresh: 'yes' } as never)).rejects.toThrow(
    'fresh of startRun must be true or false, not "yes".',
  );
  expect(existsSync(`${root}/runs`) ? readdirSync(`${root}/runs`) : []).toEqual([]);
  const { runId } = await store.startRun('t');
  await expect(store.readEvents(runId as string, { after: 1 } as never)).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "after" for readEvents; the known ones are afterSeq.',
    }),
  );
});
