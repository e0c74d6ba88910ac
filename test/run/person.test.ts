import { describe, expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { until } from '../helpers/until.js';

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe.each(STORES)('the person in the conversation, on the %s', (_, makeStore) => {
  test('the lead answers the person’s question with send_message to user: it is in the person’s inbox and wakes nobody', async () => {
    const working = gate();
    const { team, of } = testTeam(
      byAgent({
        lead: async (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Draft', assignee: 'a' })] };
          if (call.reason === 'message' && call.step === 0)
            return { toolCalls: [tool('send_message', { to: 'user', content: 'a is drafting now.' })] };
          return call.reason === 'synthesis' ? 'Drafted.' : 'ok';
        },
        a: async () => {
          await working.opened;
          return 'The draft.';
        },
      }),
      { members: ['a'], store: makeStore() },
    );
    const run = await team.start({ input: 'go' });
    await until(() => of('team:member-started').some((event) => event.data.member === 'a'));
    await run.send('lead', 'How is it going?');
    await until(() => of('team:message-sent').some((event) => event.data.to.includes('user')));
    const inbox = await team.store.transact('t', ({ mailbox }) => mailbox.unread('user'));
    expect(inbox).toMatchObject([
      { from: 'lead', to: 'user', fromAgent: true, content: 'a is drafting now.' },
    ]);
    working.open();
    const result = await run.result;
    expect(result.teamResult.stopReason).toBe('completed');
    // The lead's message to the person gave nobody a turn: a's one turn was its task.
    const turns = of('team:member-started').map((event) => `${event.data.member} ${event.data.reason}`);
    expect(turns).toEqual(['lead start', 'a task', 'lead message', 'lead synthesis']);
    // It answered the person itself: no automatic reply besides.
    const toUser = of('team:message-sent').filter((event) => event.data.to.includes('user'));
    expect(toUser.map((event) => event.data.automatic)).toEqual([false]);
  });

  test('a member woken by the person that replies in words alone: the reply comes back to the person, marked automatic', async () => {
    const sent = gate();
    const { team, of } = testTeam(
      byAgent({
        lead: (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Wait for the person', assignee: 'a' })] };
          return 'ok';
        },
        a: async () => {
          await sent.opened; // the run goes on until the person has written to b
          return 'Done.';
        },
        b: () => 'Metric.',
      }),
      { members: ['a', 'b'], store: makeStore() },
    );
    const run = await team.start({ input: 'go' });
    await until(() => of('team:member-started').some((event) => event.data.member === 'a'));
    await run.send('b', 'Which units?');
    sent.open();
    await run.result;
    const replies = of('team:message-sent').filter((event) => event.data.to.includes('user'));
    expect(replies.map((event) => event.data)).toMatchObject([
      { from: 'b', to: ['user'], automatic: true, content: 'Metric.' },
    ]);
  });

  test('everyone never reaches the person, and the person cannot write to themself', async () => {
    const store = makeStore();
    await store.createTeam('t', { lead: 'lead', members: ['a'] });
    const sent = await store.transact('t', ({ mailbox }) => mailbox.send('a', 'everyone', 'Hello all'));
    expect(sent.to).toEqual(['lead']);
    await expect(
      store.transact('t', ({ mailbox }) => mailbox.send('user', 'user', 'Hi')),
    ).rejects.toMatchObject({
      code: 'unknown-recipient',
      message: 'You cannot send a message to yourself.',
    });
    const named = store.transact('t', ({ mailbox }) => mailbox.send('a', 'nobody', 'Hi'));
    await expect(named).rejects.toThrow('send to lead, everyone, user.');
  });
});
