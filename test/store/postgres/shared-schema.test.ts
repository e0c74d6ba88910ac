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

  test('the requests a store object opens and answers are the team’s: another store object reads them', async () => {
    const schema = randomSchema();
    const [one, two] = [stores.make(schema), stores.make(schema)];
    await one.createTeam('newsroom', setup);
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
    // The other object answers it; the first sees the answer, and a second answer is refused.
    await two.transact('newsroom', ({ requests }) =>
      requests.answer(opened.id, { approve: true, feedback: '' }, 'user'),
    );
    expect(await one.transact('newsroom', ({ requests }) => requests.get(opened.id)?.status)).toBe(
      'answered',
    );
    await expect(
      one.transact('newsroom', ({ requests }) =>
        requests.answer(opened.id, { approve: false, feedback: '' }, 'user'),
      ),
    ).rejects.toMatchObject({ code: 'request-closed' });
  });

  test('close ends the pool and the listener, and is safe twice', async () => {
    const store = stores.make();
    await store.createTeam('newsroom', setup);
    store.subscribe('newsroom', () => {});
    await store.close();
    await store.close();
    await expect(store.getTeam('newsroom')).rejects.toMatchObject({ code: 'store-closed' });
  });
});
