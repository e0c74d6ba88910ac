import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { tempFolder } from '../../helpers/temp-folder.js';
import { storeConformance } from '../conformance.js';

storeConformance('FileStore', () => new FileStore({ root: tempFolder() }));

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
