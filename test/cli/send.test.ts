import path from 'node:path';
import { FileStore, type TeamEvent } from 'agent-teams';
import { expect, test, vi } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };

/** A store with the team and its run, run by this process (so live). */
async function storeIn(cwd: string, folder = '.agent-teams') {
  const store = new FileStore({ root: path.join(cwd, folder) });
  await store.createTeam('newsroom', setup);
  await store.startRun('newsroom');
  return store;
}

test('send delivers a message from the person to an agent, and a running team hears it', async () => {
  const cwd = tempFolder();
  const store = await storeIn(cwd);
  const runId = (await store.getTeam('newsroom'))?.runId;
  const heard: TeamEvent[] = [];
  const stop = store.subscribe('newsroom', (events) => heard.push(...events));
  const sent = await cli(['send', 'newsroom', 'writer', 'Use metric units'], { cwd });
  expect(sent.stderr).toBe('');
  expect(sent.code).toBe(0);
  expect(sent.stdout).toMatch(/^sent msg-[\w-]+ to writer in newsroom\n$/);
  const id = sent.stdout.split(' ')[1];
  const inbox = await store.transact('newsroom', ({ mailbox }) => mailbox.unread('writer'));
  expect(inbox).toMatchObject([{ id, from: 'user', fromAgent: false, content: 'Use metric units' }]);
  await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 20_000, interval: 20 });
  expect(heard[0]).toMatchObject({
    type: 'team:message-sent',
    runId,
    data: { id, from: 'user', to: ['writer'] },
  });
  stop();
});

test('send --store reaches a store elsewhere; lead and everyone are addresses too', async () => {
  const cwd = tempFolder();
  const store = await storeIn(cwd, 'elsewhere');
  const toLead = await cli(['send', 'newsroom', 'lead', 'Keep it short', '--store', 'elsewhere'], { cwd });
  expect(toLead.stdout).toMatch(/^sent msg-\S+ to editor in newsroom\n$/);
  const toAll = await cli(['send', 'newsroom', 'everyone', 'Deadline is Friday', '--store', 'elsewhere'], {
    cwd,
  });
  expect(toAll.stdout).toMatch(/^sent msg-\S+ to editor, researcher, writer in newsroom\n$/);
  const researcher = await store.transact('newsroom', ({ mailbox }) => mailbox.unread('researcher'));
  expect(researcher).toMatchObject([{ from: 'user', content: 'Deadline is Friday', broadcast: true }]);
});

test.each([
  ['an unknown team', ['send', 'sports', 'writer', 'Hi'], 'no team "sports" in '],
  ['an unknown agent', ['send', 'newsroom', 'publisher', 'Hi'], 'There is no agent "publisher" on the team'],
  ['the person itself', ['send', 'newsroom', 'user', 'Hi'], 'You cannot send a message to yourself.'],
  ['an empty message', ['send', 'newsroom', 'writer', '  '], 'A message needs some content.'],
])('send to %s is a one-line error, and nothing is sent', async (_, args, error) => {
  const cwd = tempFolder();
  const store = await storeIn(cwd);
  const run = await cli(args, { cwd });
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain(error);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  const inboxes = await store.transact('newsroom', ({ mailbox }) =>
    ['editor', 'researcher', 'writer'].flatMap((agent) => mailbox.messages(agent)),
  );
  expect(inboxes).toEqual([]);
});

test('send to a team with no live run is refused, saying how to start or resume one, and nothing is sent', async () => {
  const cwd = tempFolder();
  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  await store.createTeam('newsroom', setup);
  const never = await cli(['send', 'newsroom', 'writer', 'Hi'], { cwd });
  expect(never.code).toBe(1);
  expect(never.stderr).toContain(
    'No run of newsroom is going, so nobody would read the message: start a run',
  );
  // A run whose process died: resume it first.
  const { runId } = await store.startRun('newsroom');
  await store.leaveRun('newsroom', runId as string);
  const interrupted = await cli(['send', 'newsroom', 'writer', 'Hi'], { cwd });
  expect(interrupted.code).toBe(1);
  expect(interrupted.stderr).toContain(`its run ${runId} was interrupted`);
  expect(interrupted.stderr).toContain('agent-teams resume');
  expect(await store.transact('newsroom', ({ mailbox }) => mailbox.messages('writer'))).toEqual([]);
});

test('send without a store says how to make one', async () => {
  const run = await cli(['send', 'newsroom', 'writer', 'Hi'], { cwd: tempFolder() });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^agent-teams: no store at \.\/\.agent-teams/);
});
