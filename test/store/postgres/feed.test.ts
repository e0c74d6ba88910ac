import { setTimeout } from 'node:timers/promises';
import type { TeamEvent } from 'agent-teams';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { POSTGRES_URL, postgresReachable, postgresStores, randomSchema } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const setup = { lead: 'editor', members: ['writer'] };

/** Ends the connections listening to a schema's commits, as a restart or a network cut would. */
async function cutListeners(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1',
      [`LISTEN "agent_teams_${schema}"`],
    );
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** Waits until `done` holds (the test's own timeout bounds the wait). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await setTimeout(20);
}

describe.skipIf(!reachable)('PostgresStore: commits of other processes reach subscribers', () => {
  test('a subscriber gets every commit of another store once, in seq order, across a lost connection', async () => {
    const schema = randomSchema();
    const writer = stores.make(schema);
    const reader = stores.make(schema);
    await writer.createTeam('newsroom', { ...setup, maxTasks: 1000 });
    const { runId } = await writer.startRun('newsroom');
    const seen: TeamEvent[] = [];
    reader.subscribe('newsroom', (events) => seen.push(...events));
    const create = (title: string) =>
      writer.transact('newsroom', ({ board }) => board.createTask({ title }, 'editor'));
    // The subscription listens once its connection does: commit until it hears one (each
    // a new title: the board takes a create it already holds as done, which commits nothing).
    let pings = 0;
    await until(async () => {
      await create(`Ping ${++pings}`);
      return seen.length > 0;
    });
    const first = (seen[0] as TeamEvent).seq;
    // The listening connection is cut: commits made meanwhile are read from the log once it
    // is back, not lost.
    expect(await cutListeners(schema)).toBe(1);
    for (const title of ['Two', 'Three', 'Four']) await create(title);
    const last = async () => (await writer.readEvents(runId as string)).at(-1)?.seq;
    const heard = () => seen.at(-1)?.seq;
    await until(async () => heard() === (await last()));
    // The reader's own commits and the writer's interleave: still each once, in order.
    await reader.transact('newsroom', ({ board }) => board.claimTask('writer'));
    await create('Five');
    await until(async () => heard() === (await last()));
    expect(seen).toEqual(await reader.readEvents(runId as string, { afterSeq: first - 1 }));
  });

  test('a commit notifies only while a store of another session listens to its team', async () => {
    const schema = randomSchema();
    const writer = stores.make(schema);
    const reader = stores.make(schema);
    await writer.createTeam('newsroom', { ...setup, maxTasks: 1000 });
    const { runId } = await writer.startRun('newsroom');
    // A bare session listening to the schema's channel, registered for no team: it hears
    // what the store sends, in commit order.
    const bare = new pg.Client({ connectionString: POSTGRES_URL });
    await bare.connect();
    const notified: number[] = [];
    bare.on('notification', (message) => notified.push(JSON.parse(message.payload ?? '{}').seq));
    await bare.query(`LISTEN "agent_teams_${schema}"`);
    try {
      const create = (title: string) =>
        writer.transact('newsroom', ({ board }) => board.createTask({ title }, 'editor'));
      await create('Nobody listens');
      const unheard = (await writer.readEvents(runId as string)).at(-1)?.seq as number;
      const seen: TeamEvent[] = [];
      reader.subscribe('newsroom', (events) => seen.push(...events));
      let pings = 0;
      await until(async () => {
        await create(`Ping ${++pings}`);
        return seen.length > 0 && notified.length > 0;
      });
      // Notifications arrive in commit order: the first one heard is of a commit after the
      // reader listened, none of the commit before.
      expect(notified[0]).toBeGreaterThan(unheard);
    } finally {
      await bare.end();
    }
  });
});
