import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTeamTools, FileStore, isTeamError } from 'agent-teams';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';
import { runTool } from '../helpers/tools.js';

const setup = { lead: 'lead', members: ['a', 'b'] };

async function fileTeam() {
  const root = tempFolder();
  const store = new FileStore({ root });
  await store.createTeam('t', setup);
  await store.transact('t', ({ board }) => board.createTask({ title: 'First' }, 'lead'));
  const watermark = () => readFileSync(path.join(root, 'tasks/t/.highwatermark'), 'utf8');
  const ids = (s: FileStore) => s.transact('t', ({ board }) => board.listTasks().map((task) => task.id));
  return { root, store, watermark, ids };
}

test.each(['task-9007199254740992', 'task-1234567890123456789012'])(
  'a FileStore refuses the id %s, keeps its files, and still opens afterwards',
  async (id) => {
    const { root, store, watermark, ids } = await fileTeam();
    const refused = await store
      .transact('t', ({ board }) => board.createTask({ id, title: 'Too far' }, 'lead'))
      .catch((error: unknown) => error);
    expect(isTeamError(refused, 'invalid-name')).toBe(true);
    // Through the tool the model calls, too.
    expect(
      await runTool(createTeamTools({ store, team: 't' }, 'lead'), 'create_task', { id, title: 'T' }),
    ).toEqual({
      success: false,
      error: expect.stringContaining('task-N ids take N up to 1000000000'),
    });
    expect(watermark()).toBe('1\n');
    await store.close();

    const reopened = new FileStore({ root });
    expect(await ids(reopened)).toEqual(['task-1']);
    const next = await reopened.transact('t', ({ board }) => board.createTask({ title: 'Next' }, 'lead'));
    expect(next.id).toBe('task-2');
    await reopened.close();
  },
);

test('the largest task number a FileStore takes is written, read back and counted on from', async () => {
  const { root, store, watermark } = await fileTeam();
  await store.transact('t', ({ board }) => board.createTask({ id: 'task-1000000000', title: 'Far' }, 'lead'));
  expect(watermark()).toBe('1000000000\n');
  await store.close();

  const reopened = new FileStore({ root });
  const next = await reopened.transact('t', ({ board }) => board.createTask({ title: 'Next' }, 'lead'));
  expect(next.id).toBe('task-1000000001');
  expect(watermark()).toBe('1000000001\n');
  await reopened.close();
  const again = new FileStore({ root });
  expect((await again.transact('t', ({ board }) => board.listTasks())).map((task) => task.id)).toEqual([
    'task-1',
    'task-1000000000',
    'task-1000000001',
  ]);
  await again.close();
});
