import { PostgresStore } from 'agent-teams/postgres';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postgresReachable, postgresStores, randomSchema } from './database.js';
import { type CommitCut, DatabaseProxy } from './database-faults.js';

// A COMMIT whose connection is cut: before the server has it (the transaction did not
// happen: it is done again, on the team as it is), or after (it happened: its answer is
// read back, never done a second time). Either way the caller gets its answer, once. The
// same for a commit sent as one statement with no lock taken first (a store whose cache of
// the team is current guesses so), and for the COMMIT of a transaction that locked the team
// (another store committed since: the guess finds the team moved, and it locks).
const reachable = await postgresReachable();
const stores = postgresStores();
const proxy = new DatabaseProxy();
beforeAll(() => proxy.up());
afterAll(() => proxy.down());

describe.skipIf(!reachable)('a COMMIT whose connection is cut', () => {
  test.each<[CommitCut, 'guessed' | 'locked']>([
    ['before-landing', 'guessed'],
    ['after-landing', 'guessed'],
    ['before-landing', 'locked'],
    ['after-landing', 'locked'],
  ])('%s, %s: the transaction is applied once and answers', async (mode, path) => {
    const schema = randomSchema();
    stores.schemas.push(schema);
    const store = new PostgresStore({ connectionString: proxy.url, schema });
    const observer = stores.make(schema);
    try {
      await store.createTeam('t', { lead: 'lead', members: ['a'] });
      await store.startRun('t');
      const seen: string[] = [];
      const unsubscribe = observer.subscribe('t', (events) => {
        for (const event of events) if (event.type === 'team:task-created') seen.push(event.data.task.id);
      });
      if (path === 'locked') await observer.transact('t', ({ mailbox }) => mailbox.send('lead', 'a', 'hi'));
      const cut =
        path === 'locked' ? proxy.cutCommit(mode) : proxy.cutStatement(/^WITH guard AS MATERIALIZED/, mode);
      const task = await store.transact('t', ({ board }) => board.createTask({ title: 'Once' }, 'lead'));
      await cut;
      expect(task.id).toBe('task-1');
      // Read on another store: the database itself holds one task, and one event of it.
      const tasks = await observer.transact('t', ({ board }) => board.listTasks());
      expect(tasks.map((each) => [each.id, each.title])).toEqual([['task-1', 'Once']]);
      const runId = (await observer.getTeam('t'))?.runId as string;
      const created = (await observer.readEvents(runId)).filter(
        (event) => event.type === 'team:task-created',
      );
      expect(created).toHaveLength(1);
      // The store goes on: its next transaction builds on the one that landed.
      const next = await store.transact('t', ({ board }) => board.createTask({ title: 'Then' }, 'lead'));
      expect(next.id).toBe('task-2');
      unsubscribe();
    } finally {
      await store.close();
    }
  });
});
