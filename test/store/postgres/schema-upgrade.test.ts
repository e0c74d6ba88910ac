import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { POSTGRES_URL, postgresReachable, postgresStores } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const setup = { lead: 'editor', members: ['writer'] };

/** Puts a schema back as agent-teams wrote it at schema version 7: inboxes whole, events without commit tokens. */
async function asVersion7(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const s = `"${schema}"`;
  try {
    await client.query(`
      CREATE TABLE ${s}.inboxes (
        team text NOT NULL REFERENCES ${s}.teams (name),
        agent text NOT NULL,
        messages jsonb NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (team, agent)
      );
      INSERT INTO ${s}.inboxes (team, agent, messages, version)
        SELECT team, agent, jsonb_agg(body ORDER BY ord), max(version)
        FROM ${s}.inbox_messages WHERE body IS NOT NULL GROUP BY team, agent;
      DROP TABLE ${s}.inbox_messages;
      ALTER TABLE ${s}.events DROP COLUMN commit_token;
      DELETE FROM ${s}.migrations WHERE version > 7;`);
  } finally {
    await client.end();
  }
}

describe.skipIf(!reachable)('PostgresStore: a schema written by an older agent-teams', () => {
  test('is upgraded when a store opens it: every inbox reads as it was, in order, read and unread, and goes on', async () => {
    const old = stores.make();
    await old.createTeam('newsroom', setup);
    await old.transact('newsroom', ({ mailbox }) => {
      mailbox.send('editor', 'writer', 'one');
      mailbox.send('editor', 'writer', 'two');
      mailbox.send('writer', 'editor', 'back');
    });
    await old.transact('newsroom', ({ mailbox }) =>
      mailbox.markRead('writer', [mailbox.messages('writer')[0]?.id as string]),
    );
    const inboxes = ({ mailbox }: { mailbox: { messages(agent: string): readonly unknown[] } }) => ({
      writer: mailbox.messages('writer'),
      editor: mailbox.messages('editor'),
    });
    const before = await old.transact('newsroom', inboxes);
    await old.close();
    await asVersion7(old.schema);

    const upgraded = stores.make(old.schema);
    expect(await upgraded.transact('newsroom', inboxes)).toEqual(before);
    await upgraded.transact('newsroom', ({ mailbox }) => {
      mailbox.markRead('writer', [mailbox.messages('writer')[1]?.id as string]);
      mailbox.send('editor', 'writer', 'three');
    });
    const after = await upgraded.transact('newsroom', inboxes);
    expect(after.writer.map((message) => (message as { content: string }).content)).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(after.writer.map((message) => (message as { readAt: string | null }).readAt !== null)).toEqual([
      true,
      true,
      false,
    ]);
    // Another store object reads the same from the tables.
    expect(await stores.make(old.schema).transact('newsroom', inboxes)).toEqual(after);
  });
});
