import type { TeamRunHandle } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

describe.each(STORES)('messages reach a member mid-turn, on the %s', (_, makeStore) => {
  test('a member in a 10-step tool loop gets a message sent during its step 2 at its step 3, once, and it counts as read', async () => {
    let run: TeamRunHandle | undefined;
    const { team, model, of } = testTeam(
      byAgent({
        lead: (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Measure the room', assignee: 'a' })] };
          return call.reason === 'synthesis' ? 'Measured.' : 'ok';
        },
        a: async (call) => {
          if (call.step === 2) await run?.send('a', 'Use metric units.');
          if (call.step < 9) return { toolCalls: [tool('list_tasks')] };
          return call.given.some((text) => text.includes('Use metric units.'))
            ? '4.2 m by 3.1 m.'
            : '14 ft by 10 ft.';
        },
      }),
      { members: ['a'], store: makeStore(), agents: { a: { maxIterations: 12 } } },
    );
    run = await team.start({ input: 'Measure it' });
    const result = await run.result;
    const calls = model.calls.filter((call) => call.agent === 'a');
    expect(calls.map((call) => call.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Not before it was sent; at the next step; once (each later step still has just the one).
    expect(calls.slice(0, 3).map((call) => call.given.length)).toEqual([0, 0, 0]);
    for (const call of calls.slice(3)) {
      expect(call.given).toHaveLength(1);
      expect(call.given[0]).toMatch(/^\[new messages, sent to you while you worked/);
      expect(call.given[0]).toContain('from the user');
      expect(call.given[0]).toContain('Use metric units.');
      // The tool loop goes on as before: the step still sees its tools' results.
      expect(call.toolResults.map((result) => result.toolName)).toEqual(['list_tasks']);
    }
    expect(result.teamResult.tasks[0]?.result).toBe('4.2 m by 3.1 m.');
    // Given in the turn, it was read at its end: no second turn for it.
    expect(of('team:member-started').filter((event) => event.data.member === 'a')).toHaveLength(1);
    const inbox = await team.store.transact('t', ({ mailbox }) => mailbox.messages('a'));
    expect(inbox.filter((message) => message.readAt === null)).toEqual([]);
    // The transcript marks it as given mid-turn, before step 3.
    const given = of('team:turn-prompt').filter(
      (event) => event.data.agent === 'a' && event.data.step !== undefined,
    );
    expect(given.map((event) => event.data.step)).toEqual([3]);
  });
});

test('a question that reaches a member mid-turn gets its reply when that turn ends: the asker goes on with the answer', async () => {
  let asked = () => {};
  const questionSent = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const { team, model, of } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0)
          return {
            toolCalls: [
              createTask({ title: 'Lay the table', assignee: 'b' }),
              createTask({ title: 'Serve', assignee: 'a' }),
            ],
          };
        return call.reason === 'synthesis' ? 'Served.' : 'ok';
      },
      // b works in steps; a's question comes while it does.
      b: async (call) => {
        if (call.step === 0) return { toolCalls: [tool('list_tasks')] };
        if (call.step === 1) {
          await questionSent;
          return { toolCalls: [tool('list_tasks')] };
        }
        return call.given.some((text) => text.includes('How many plates?')) ? 'Six plates.' : 'Laid.';
      },
      a: (call) => {
        if (call.prompt.includes('Six plates.')) return 'Served six.';
        if (call.step === 0)
          return {
            toolCalls: [tool('send_message', { to: 'b', content: 'How many plates?', kind: 'question' })],
          };
        asked();
        return 'Waiting for b.';
      },
    }),
    { members: ['a', 'b'] },
  );
  const result = await team.run({ input: 'Dinner' });
  expect(result.teamResult.stopReason).toBe('completed');
  // b read the question between its steps, and its reply went back to a, marked automatic.
  expect(
    of('team:message-sent')
      .filter((event) => event.data.from === 'b' && event.data.to.includes('a'))
      .map((event) => [event.data.content, event.data.automatic]),
  ).toEqual([['Six plates.', true]]);
  expect(result.teamResult.tasks.find((task) => task.owner === 'a')?.result).toBe('Served six.');
  expect(model.calls.some((call) => call.agent === 'b' && call.reason === 'message')).toBe(false);
});
