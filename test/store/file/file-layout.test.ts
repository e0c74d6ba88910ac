import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore, USER } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { tempFolder } from '../../helpers/temp-folder.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };
const readJsonFile = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('FileStore files', () => {
  test('lays a team out as plain JSON files under its root', async () => {
    const root = tempFolder();
    const store = new FileStore({ root });
    const info = await store.createTeam('newsroom', setup);
    const run = await store.startRun('newsroom');
    await store.transact('newsroom', ({ board, mailbox }) => {
      board.createTask({ title: 'Research tides' }, 'editor');
      board.claimTask('researcher');
      mailbox.send('researcher', 'writer', 'Notes are in task-1');
    });

    expect(readJsonFile(path.join(root, 'teams/newsroom/config.json'))).toMatchObject({
      name: 'newsroom',
      teamId: info.teamId,
      lead: 'editor',
      roster: [
        expect.objectContaining({ name: 'editor', role: 'lead', status: 'active' }),
        expect.objectContaining({ name: 'researcher', role: 'member', status: 'active' }),
        expect.objectContaining({ name: 'writer', role: 'member', status: 'active' }),
      ],
      runId: run.runId,
    });
    expect(readJsonFile(path.join(root, 'tasks/newsroom/task-1.json'))).toMatchObject({
      id: 'task-1',
      title: 'Research tides',
      status: 'in_progress',
      owner: 'researcher',
    });
    expect(readFileSync(path.join(root, 'tasks/newsroom/.highwatermark'), 'utf8')).toBe('1\n');
    expect(readJsonFile(path.join(root, 'teams/newsroom/inboxes/writer.json'))).toMatchObject([
      { from: 'researcher', to: 'writer', content: 'Notes are in task-1', readAt: null },
    ]);
    const log = readFileSync(path.join(root, `runs/${run.runId}/events.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(log.map((line) => JSON.parse(line).type)).toEqual([
      'team:task-created',
      'team:task-claimed',
      'team:message-sent',
    ]);
    // No temp file or lock is left behind once the store is idle; the journal stays, finished.
    await store.close();
    expect(readdirSync(path.join(root, 'tasks/newsroom')).sort()).toEqual([
      '.changes',
      '.highwatermark',
      '.journal',
      '.version',
      'task-1.json',
    ]);
  });

  test('persists only what changed', async () => {
    const root = tempFolder();
    const store = new FileStore({ root });
    await store.createTeam('newsroom', setup);
    await store.transact('newsroom', ({ board }) => {
      board.createTask({ title: 'One' }, 'editor');
      board.createTask({ title: 'Two' }, 'editor');
    });
    const file = path.join(root, 'tasks/newsroom/task-2.json');
    const before = readFileSync(file, 'utf8');
    const { mtimeMs } = statSync(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.transact('newsroom', ({ board }) => board.claimTask('writer', 'task-1'));
    expect(statSync(file).mtimeMs).toBe(mtimeMs);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readJsonFile(path.join(root, 'tasks/newsroom/task-1.json')).status).toBe('in_progress');
  });

  test('two stores on one folder see each other’s commits', async () => {
    const root = tempFolder();
    const first = new FileStore({ root });
    const second = new FileStore({ root });
    await first.createTeam('newsroom', setup);
    await first.transact('newsroom', ({ board }) => board.createTask({ title: 'Shared' }, 'editor'));
    expect(await second.transact('newsroom', ({ board }) => board.claimTask('writer')?.id)).toBe('task-1');
    await expect(
      first.transact('newsroom', ({ board }) => board.claimTask('researcher', 'task-1')),
    ).rejects.toThrow('The task task-1 is in progress with writer.');
    await second.transact('newsroom', ({ mailbox }) => mailbox.send('writer', 'researcher', 'mine'));
    expect(await first.transact('newsroom', ({ mailbox }) => mailbox.take('researcher').length)).toBe(1);
    // A commit of events alone changes no file, and the other store reads past it.
    await first.startRun('newsroom', { fresh: false });
    await first.transact('newsroom', ({ emit }) =>
      emit({ type: 'team:start', data: { lead: 'editor', members: ['researcher', 'writer'], input: 'go' } }),
    );
    expect(await second.transact('newsroom', ({ board }) => board.getTask('task-1')?.owner)).toBe('writer');
  });

  test('a message from the person is kept as such, for every store that reads it', async () => {
    const root = tempFolder();
    await new FileStore({ root }).createTeam('newsroom', setup);
    await new FileStore({ root }).transact('newsroom', ({ mailbox }) =>
      mailbox.send(USER, 'writer', 'Use metric units'),
    );
    expect(readJsonFile(path.join(root, 'teams/newsroom/inboxes/writer.json'))).toMatchObject([
      { from: 'user', fromAgent: false, content: 'Use metric units' },
    ]);
    const taken = await new FileStore({ root }).transact('newsroom', ({ mailbox }) => mailbox.take('writer'));
    expect(taken).toMatchObject([{ from: 'user', fromAgent: false }]);
  });

  test('the version stamp spares re-reading what no one changed', async () => {
    const root = tempFolder();
    const first = new FileStore({ root });
    const second = new FileStore({ root });
    await first.createTeam('newsroom', setup);
    await first.transact('newsroom', ({ board }) => {
      board.createTask({ title: 'One' }, 'editor');
      board.createTask({ title: 'Two' }, 'editor');
    });
    await second.transact('newsroom', () => 0); // both stores now hold the team in cache
    // Broken behind the stores' backs: a store that re-read everything would refuse it.
    writeFileSync(path.join(root, 'tasks/newsroom/task-2.json'), '{ broken');
    await second.transact('newsroom', ({ board }) => board.claimTask('writer', 'task-1'));
    // `first` re-reads task-1 (the stamp names it), never task-2.
    expect(await first.transact('newsroom', ({ board }) => board.getTask('task-1')?.owner)).toBe('writer');
    // A store with no cache must read everything and so finds the broken file.
    await expect(new FileStore({ root }).transact('newsroom', () => 0)).rejects.toMatchObject({
      code: 'corrupt-file',
    });
  });

  test('a team name that is not a safe path segment makes no folder', async () => {
    const root = tempFolder();
    const store = new FileStore({ root: path.join(root, 'store') });
    await expect(store.createTeam('../escape', setup)).rejects.toMatchObject({ code: 'invalid-name' });
    await expect(store.createTeam('', setup)).rejects.toMatchObject({ code: 'invalid-name' });
    expect(existsSync(path.join(root, 'store'))).toBe(false);
    expect(existsSync(path.join(root, 'escape'))).toBe(false);
  });

  test('a store folder that cannot be made is a clear error', async () => {
    const root = tempFolder();
    writeFileSync(path.join(root, 'a-file'), '');
    const store = new FileStore({ root: path.join(root, 'a-file', 'store') });
    await expect(store.createTeam('newsroom', setup)).rejects.toMatchObject({
      code: 'store-io',
      message: expect.stringContaining(path.join(root, 'a-file', 'store')),
    });
  });
});
