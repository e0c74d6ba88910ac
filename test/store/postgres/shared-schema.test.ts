import { describe, expect, test } from 'vitest';
import { postgresReachable, postgresStores, randomSchema } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const setup = { lead: 'editor', members: ['writer'] };

describe.skipIf(!reachable)('PostgresStore: stores sharing a schema', () => {
  test('stores opened at once on a new schema migrate it once, and share its teams', async () => {
    const schema = randomSchema();
    const many = Array.from({ length: 6 }, () => stores.make(schema));
    const made = await Promise.all(many.map((store) => store.createTeam('newsroom', setup)));
    expect(new Set(made.map((info) => info.teamId)).size).toBe(1);
    expect((await many[5]?.listTeams())?.map((team) => team.name)).toEqual(['newsroom']);
  });

  test('close ends the pool and the listener, and is safe twice', async () => {
    const store = stores.make();
    await store.createTeam('newsroom', setup);
    store.subscribe('newsroom', () => {});
    await store.close();
    await store.close();
    await expect(store.getTeam('newsroom')).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
