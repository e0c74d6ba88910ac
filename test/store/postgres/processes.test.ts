import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runScript } from '../../helpers/child.js';
import { POSTGRES_URL, postgresReachable, postgresStores, randomSchema } from './database.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const members = Array.from({ length: 8 }, (_, index) => `worker${index + 1}`);
const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('PostgresStore across processes', () => {
  test('8 processes claim and complete 400 tasks: each task completed once, by its claimer', async () => {
    const schema = randomSchema();
    const store = stores.make(schema);
    await store.createTeam('race', { lead: 'lead', members, maxTasks: 400 });
    await store.transact('race', ({ board }) => {
      for (let index = 0; index < 400; index++) board.createTask({ title: `Task ${index}` }, 'lead');
    });

    const outputs = await Promise.all(
      members.map((member) =>
        runScript(fixture('claim-worker.mjs'), ['postgres', POSTGRES_URL, schema, 'race', member]),
      ),
    );
    const claims = outputs.map((output) => JSON.parse(output) as string[]);

    const all = claims.flat();
    expect(all).toHaveLength(400);
    expect(new Set(all).size).toBe(400);
    expect(claims.filter((ids) => ids.length > 0).length).toBeGreaterThan(1);
    // Read by this process, whose cache is 800 commits behind: it must re-read the team.
    const tasks = await store.transact('race', ({ board }) => board.listTasks());
    expect(tasks.every((task) => task.status === 'completed')).toBe(true);
    members.forEach((member, index) => {
      for (const id of claims[index] ?? []) {
        expect(tasks.find((task) => task.id === id)).toMatchObject({
          owner: member,
          result: `${member}:${id}`,
        });
      }
    });
  }, 180_000); // 8 processes on 2 cores: slow under load, bounded all the same
});
