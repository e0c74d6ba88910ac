import type { TeamMessage } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { postgresReachable, postgresStores } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const setup = { lead: 'editor', members: ['writer'] };
// The read messages an inbox keeps (LIMITS.readKept): older read ones are dropped.
const READ_KEPT = 100;

describe.skipIf(!reachable)('PostgresStore: inboxes kept a row per message', () => {
  test('another store object catching up commit by commit reads every inbox as the writer has it, dropped read messages gone', async () => {
    const writer = stores.make();
    await writer.createTeam('newsroom', setup);
    const reader = stores.make(writer.schema);
    const inboxes = ({ mailbox }: { mailbox: { messages(agent: string): readonly TeamMessage[] } }) => ({
      writer: mailbox.messages('writer'),
      editor: mailbox.messages('editor'),
    });
    // The reader's cache starts here, and catches up after each of the writer's commits.
    expect(await reader.transact('newsroom', inboxes)).toEqual({ writer: [], editor: [] });
    for (let n = 0; n < READ_KEPT + 5; n++) {
      await writer.transact('newsroom', ({ mailbox }) => {
        mailbox.send('editor', 'writer', `message ${n}`);
        if (n % 7 === 0) mailbox.send('writer', 'editor', `answer ${n}`);
      });
      await writer.transact('newsroom', ({ mailbox }) =>
        mailbox.markRead('writer', [mailbox.unread('writer')[0]?.id as string]),
      );
      if (n % 10 === 0 || n >= READ_KEPT - 2)
        expect(await reader.transact('newsroom', inboxes)).toEqual(
          await writer.transact('newsroom', inboxes),
        );
    }
    const kept = await reader.transact('newsroom', inboxes);
    expect(kept.writer).toHaveLength(READ_KEPT);
    expect(kept.writer[0]?.content).toBe('message 5');
    // A store object with no cache reads the same whole.
    expect(await stores.make(writer.schema).transact('newsroom', inboxes)).toEqual(kept);
  });
});
