import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { tempFolder } from '../../helpers/temp-folder.js';
import { storeConformance } from '../conformance.js';

storeConformance(
  'FileStore',
  () => new FileStore({ root: tempFolder() }),
  (store) => new FileStore({ root: (store as FileStore).root }),
);

test('a config.json written before rosters (members and departed names) reads as a roster', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  const made = await store.createTeam('old', { lead: 'editor', members: ['a', 'b'] });
  const file = path.join(root, 'teams/old/config.json');
  const { roster: _roster, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...rest, members: ['a', 'b'], departed: ['b'] }));
  const read = await new FileStore({ root }).getTeam('old');
  expect(read?.roster.map((entry) => [entry.name, entry.role, entry.status, entry.joinedAt])).toEqual([
    ['editor', 'lead', 'active', made.createdAt],
    ['a', 'member', 'active', made.createdAt],
    ['b', 'member', 'shutdown', made.createdAt],
  ]);
  await store.close();
});

test('the requests one FileStore object opens and answers are the team’s: another object reads them', async () => {
  const root = tempFolder();
  const [one, two] = [new FileStore({ root }), new FileStore({ root })];
  await one.createTeam('newsroom', { lead: 'editor', members: ['writer'] });
  await one.startRun('newsroom');
  const draft = {
    kind: 'tool',
    to: 'user',
    subject: 'deploy',
    taskId: null,
    tool: 'deploy',
    path: null,
  } as const;
  const timeouts = { planApprovalTimeoutMs: 1000, permissionTimeoutMs: 1000 };
  const opened = await one.transact('newsroom', ({ requests }) =>
    requests.open('writer', draft, 1, timeouts),
  );
  await two.transact('newsroom', ({ requests }) =>
    requests.answer(opened.id, { approve: true, feedback: '' }, 'user'),
  );
  expect(await one.transact('newsroom', ({ requests }) => requests.get(opened.id)?.status)).toBe('answered');
  expect(JSON.parse(readFileSync(path.join(root, 'teams/newsroom/requests.json'), 'utf8')).requests).toEqual([
    expect.objectContaining({ id: opened.id, status: 'answered', by: 'user' }),
  ]);
  await Promise.all([one.close(), two.close()]);
});
