import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamStore } from 'agent-teams';
import { describe, expect, test, vi } from 'vitest';
import { runScript } from '../../helpers/child.js';
import { tempFolder } from '../../helpers/temp-folder.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
// Generous: a commit of another process is noticed within a poll, but the machine may be busy.
const patiently = { timeout: 20_000, interval: 20 };

/** Every event a store's subscriber hears for the team, in the order heard. */
function listen(store: TeamStore, team: string) {
  const heard: TeamEvent[] = [];
  const stop = store.subscribe(team, (events) => heard.push(...events));
  return { heard, stop, seqs: () => heard.map((event) => event.seq) };
}

async function runningTeam(root: string) {
  const store = new FileStore({ root });
  await store.createTeam('newsroom', setup);
  await store.startRun('newsroom');
  return store;
}

describe('FileStore: commits of other processes reach subscribers', () => {
  test('another store on the folder commits: the subscriber hears it, and its own commits once', async () => {
    const root = tempFolder();
    const mine = await runningTeam(root);
    const other = new FileStore({ root });
    const listener = listen(mine, 'newsroom');
    await other.transact('newsroom', ({ mailbox }) => mailbox.send('writer', 'lead', 'Draft is ready'));
    await vi.waitFor(
      () => expect(listener.heard.map((event) => event.type)).toEqual(['team:message-sent']),
      patiently,
    );
    expect(listener.heard[0]).toMatchObject({ seq: 1, data: { from: 'writer', content: 'Draft is ready' } });
    // A commit of events alone (no file changes) is heard too.
    await other.transact('newsroom', ({ emit }) => emit({ type: 'team:resumed', data: { requeued: [] } }));
    await vi.waitFor(() => expect(listener.seqs()).toEqual([1, 2]), patiently);
    // Both stores commit, interleaved: every event is heard once, in commit order.
    for (let round = 0; round < 5; round++) {
      await mine.transact('newsroom', ({ board }) => board.createTask({ title: `Mine ${round}` }, 'editor'));
      await other.transact('newsroom', ({ mailbox }) =>
        mailbox.send('researcher', 'writer', `Theirs ${round}`),
      );
    }
    await vi.waitFor(() => expect(listener.seqs()).toHaveLength(12), patiently);
    await mine.transact('newsroom', ({ board }) => board.createTask({ title: 'Last' }, 'editor'));
    await vi.waitFor(() => expect(listener.seqs()).toContain(13), patiently);
    expect(listener.seqs()).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
    listener.stop();
    await mine.close();
    await mine.close();
  });

  test('a child process sends a message: the subscriber in this process hears it', async () => {
    const root = tempFolder();
    const store = await runningTeam(root);
    const listener = listen(store, 'newsroom');
    await runScript(fixture('send-worker.mjs'), [root, 'newsroom', 'writer', 'editor', '1']);
    await vi.waitFor(() => expect(listener.heard).toHaveLength(1), patiently);
    expect(listener.heard[0]).toMatchObject({
      type: 'team:message-sent',
      team: 'newsroom',
      seq: 1,
      data: { from: 'writer', to: ['editor'], content: 'writer#0' },
    });
    listener.stop();
    await store.close();
  }, 60_000);

  test('a subscriber hears what was committed after it subscribed, not before', async () => {
    const root = tempFolder();
    const mine = await runningTeam(root);
    const other = new FileStore({ root });
    await other.transact('newsroom', ({ board }) => board.createTask({ title: 'Before' }, 'editor'));
    const first = listen(mine, 'newsroom');
    await other.transact('newsroom', ({ board }) => board.createTask({ title: 'While' }, 'editor'));
    await vi.waitFor(() => expect(first.seqs()).toEqual([2]), patiently);
    first.stop();
    await other.transact('newsroom', ({ board }) => board.createTask({ title: 'Unheard' }, 'editor'));
    const second = listen(mine, 'newsroom');
    await other.transact('newsroom', ({ board }) => board.createTask({ title: 'Again' }, 'editor'));
    await vi.waitFor(() => expect(second.seqs()).toEqual([4]), patiently);
    expect(second.heard[0]).toMatchObject({ data: { task: { title: 'Again' } } });
    second.stop();
  });

  test('a new run started by another process is followed from its first event', async () => {
    const root = tempFolder();
    const mine = await runningTeam(root);
    const other = new FileStore({ root });
    const listener = listen(mine, 'newsroom');
    // This process leaves its run, so the other store may start the next one.
    await mine.leaveRun('newsroom', (await mine.getTeam('newsroom'))?.runId as string);
    const { runId } = await other.startRun('newsroom');
    await other.transact('newsroom', ({ board }) => board.createTask({ title: 'New run' }, 'editor'));
    await vi.waitFor(() => expect(listener.heard).toHaveLength(1), patiently);
    expect(listener.heard[0]).toMatchObject({ runId, seq: 1, type: 'team:task-created' });
    listener.stop();
  });

  test('a process whose store has subscribers still ends on its own', async () => {
    const root = tempFolder();
    await runningTeam(root);
    expect(await runScript(fixture('subscribe-and-end.mjs'), [root, 'newsroom'])).toBe('subscribed\n');
  }, 60_000);
});
