import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore, type TeamStore } from 'agent-teams';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../store/postgres/database.js';

describe.each(STORES)('typed messages on the %s', (_, makeStore) => {
  test('send_message takes a kind from the model’s set: kept in the inbox, shown to the reader', async () => {
    const { team, model, of } = testTeam(
      byAgent({
        lead: (call) =>
          call.reason === 'start' && call.step === 0
            ? {
                toolCalls: [
                  tool('send_message', { to: 'a', content: 'Metric or imperial?', kind: 'question' }),
                ],
              }
            : 'ok',
        a: () => 'Metric.',
      }),
      { members: ['a'], store: makeStore() },
    );
    const result = await team.run({ input: 'go' });
    expect(of('team:message-sent')[0]?.data).toMatchObject({ from: 'lead', kind: 'question' });
    const prompt = model.calls.find((call) => call.agent === 'a')?.prompt;
    expect(prompt).toContain('from lead [question]]');
    const inbox = await team.store.transact('t', ({ mailbox }) => mailbox.messages('a'));
    expect(inbox[0]).toMatchObject({ kind: 'question', content: 'Metric or imperial?' });
    expect(result.teamResult.stopReason).toBe('no-tasks');
  });

  test('a kind the model may not send is refused with the allowed ones', async () => {
    const { team, model, of } = testTeam(
      byAgent({
        lead: (call) =>
          call.reason === 'start' && call.step === 0
            ? { toolCalls: [tool('send_message', { to: 'a', content: 'Stop.', kind: 'shutdown_request' })] }
            : 'ok',
      }),
      { members: ['a'], store: makeStore() },
    );
    await team.run({ input: 'go' });
    const answer = model.calls.find((call) => call.agent === 'lead' && call.step === 1)?.toolResults[0];
    expect(answer?.output).toMatchObject({ success: false, error: expect.stringContaining('status_update') });
    expect(of('team:message-sent')).toEqual([]);
  });

  test('a member idle with nothing to take tells the lead once, with its last reply; the notice wakes nobody', async () => {
    const { team, model, of } = testTeam(
      byAgent({
        lead: (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Draft', assignee: 'a' })] };
          return call.reason === 'synthesis' ? 'Final' : 'ok';
        },
        a: () => 'The draft is done.',
      }),
      { members: ['a', 'b'], store: makeStore() },
    );
    const result = await team.run({ input: 'go' });
    const notices = of('team:message-sent').filter((event) => event.data.kind === 'idle_notification');
    // b never worked, so it never went idle from work: only a tells.
    expect(notices.map((event) => [event.data.from, event.data.to, event.data.idleReason])).toEqual([
      ['a', ['lead'], 'available'],
    ]);
    expect(notices[0]?.data.content).toContain('The draft is done.');
    expect(notices[0]?.data.content).toContain('task-1 ("Draft"), completed');
    // No lead turn for the notice; the synthesis is given it, so nothing is left unread.
    expect(model.calls.filter((call) => call.agent === 'lead').map((call) => call.reason)).toEqual([
      'start',
      'start',
      'synthesis',
    ]);
    expect(model.calls.find((call) => call.reason === 'synthesis')?.prompt).toContain('a is available');
    const unread = await team.store.transact('t', ({ mailbox }) => mailbox.unread('lead'));
    expect(unread).toEqual([]);
    expect(result.teamResult.stopReason).toBe('completed');
  });

  test('the notice is not repeated for the same idle: a message turn in between does not make a new one', async () => {
    let aIdle!: () => void;
    const aFinished = new Promise<void>((resolve) => {
      aIdle = resolve;
    });
    let thanked = false;
    const { team, of } = testTeam(
      async (call) => {
        if (call.agent === 'a') return 'Done.';
        // b answers once a has finished its task, so the lead's thanks finds a idle.
        if (call.agent === 'b') return aFinished.then(() => 'Hi.');
        if (call.reason === 'start' && call.step === 0) {
          const hello = tool('send_message', { to: 'b', content: 'Hello' });
          return { toolCalls: [createTask({ title: 'One', assignee: 'a' }), hello] };
        }
        if (call.reason === 'message' && call.step === 0 && !thanked) {
          thanked = true;
          return { toolCalls: [tool('send_message', { to: 'a', content: 'Thanks!' })] };
        }
        return 'ok';
      },
      { members: ['a', 'b'], store: makeStore() },
    );
    team.on('team:member-finished', (event) => {
      if (event.data.member === 'a') aIdle();
    });
    await team.run({ input: 'go' });
    const notices = of('team:message-sent')
      .filter((event) => event.data.kind === 'idle_notification')
      .map((event) => `${event.data.from} ${event.data.idleReason}`);
    // a told the lead once, after its task; its message turn (the lead's thanks) ended the
    // same idle, with nothing to take: no second notice. b told once, after its message turn.
    expect(notices.sort()).toEqual(['a available', 'b available']);
    const aTurns = of('team:member-started').filter((event) => event.data.member === 'a');
    expect(aTurns.map((event) => event.data.reason)).toEqual(['task', 'message']);
  });

  test('when the lead reassigns a task, both members get a task_notification', async () => {
    const { team, of } = testTeam(
      byAgent({
        lead: (call) =>
          call.reason === 'start' && call.step === 0
            ? {
                // Review waits for Research, so a cannot start it before it is reassigned.
                toolCalls: [
                  createTask({ title: 'Research' }),
                  createTask({ title: 'Review', assignee: 'a', dependsOn: ['task-1'] }),
                  tool('assign_task', { taskId: 'task-2', assignee: 'b' }),
                ],
              }
            : 'Final',
      }),
      { members: ['a', 'b'], store: makeStore() },
    );
    await team.run({ input: 'go' });
    const told = of('team:message-sent').filter((event) => event.data.kind === 'task_notification');
    expect(told.map((event) => [event.data.to, event.data.content])).toEqual([
      [['a'], 'task-2 ("Review") was reassigned from you to b.'],
      [['b'], 'task-2 ("Review") was reassigned to you from a.'],
    ]);
  });
});

test('the FileStore keeps the kind in the inbox file, and reads a message written before kinds as text', async () => {
  const root = tempFolder('agent-teams-kinds-');
  const store: TeamStore = new FileStore({ root });
  await store.createTeam('k', { lead: 'lead', members: ['a'] });
  await store.transact('k', ({ mailbox }) => mailbox.send('lead', 'a', 'Status?', { kind: 'question' }));
  const file = path.join(root, 'teams/k/inboxes/a.json');
  const [written] = JSON.parse(readFileSync(file, 'utf8'));
  expect(written.kind).toBe('question');
  const { kind: _, ...old } = written;
  writeFileSync(file, JSON.stringify([old]));
  const again = new FileStore({ root });
  const [read] = await again.transact('k', ({ mailbox }) => mailbox.messages('a'));
  expect(read).toMatchObject({ content: 'Status?', kind: 'text' });
});

const reachable = await postgresReachable();
const postgres = postgresStores();

describe.skipIf(!reachable)('the PostgresStore', () => {
  test('round-trips the kind, and reads a message stored before kinds as text', async () => {
    const store = postgres.make();
    await store.createTeam('k', { lead: 'lead', members: ['a'] });
    await store.transact('k', ({ mailbox }) =>
      mailbox.send('a', 'lead', 'a is idle', { kind: 'idle_notification', idleReason: 'available' }),
    );
    const other = postgres.make(store.schema);
    const [kept] = await other.transact('k', ({ mailbox }) => mailbox.messages('lead'));
    expect(kept).toMatchObject({ kind: 'idle_notification', idleReason: 'available' });
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(
      `UPDATE "${store.schema}".inbox_messages SET body = body - 'kind' - 'idleReason', version = version + 100 WHERE agent = 'lead'`,
    );
    await client.query(`UPDATE "${store.schema}".teams SET version = version + 100, epoch = epoch + 1`);
    await client.end();
    const [old] = await postgres.make(store.schema).transact('k', ({ mailbox }) => mailbox.messages('lead'));
    expect(old).toMatchObject({ content: 'a is idle', kind: 'text' });
  });
});
