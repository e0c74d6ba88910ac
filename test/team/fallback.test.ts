import type { TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const told = (events: TeamEvent<'team:message-sent'>[]) =>
  events.filter((event) => event.data.kind !== 'idle_notification');

test('an agent that never calls a tool still works: one model call per task, its reply the result', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [1, 2, 3].map((n) => createTask({ title: `Part ${n}` })) }
          : 'Final',
      a: (call) => `Part done by a (${call.taskId})`,
      b: (call) => `Part done by b (${call.taskId})`,
    }),
    { members: ['a', 'b'] },
  );
  const result = await team.run({ input: 'go' });
  const memberCalls = model.calls.filter((call) => call.agent !== 'lead');
  expect(memberCalls).toHaveLength(3);
  for (const task of result.teamResult.tasks) {
    expect(task.status).toBe('completed');
    expect(task.result).toBe(`Part done by ${task.owner} (${task.id})`);
  }
});

test('a member that ends its turn with no reply gives the task back instead', async () => {
  let tries = 0;
  const { team } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'Hard', assignee: 'a' })] }
          : 'Final',
      a: () => (++tries === 1 ? '' : 'Got it on the second try'),
    }),
    { members: ['a'] },
  );
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.tasks[0]).toMatchObject({
    status: 'completed',
    result: 'Got it on the second try',
  });
  expect(tries).toBe(2);
});

test('a member woken by a message it does not answer has its reply sent back, and the echo is not answered', async () => {
  const { team, of } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start') {
          return call.step === 0 ? { toolCalls: [createTask({ title: 'T', assignee: 'a' })] } : 'Planned.';
        }
        return call.reason === 'synthesis' ? 'Final' : 'Thanks.';
      },
      a: (call) => {
        if (call.reason !== 'task') return 'Thanks, noted.';
        return call.step === 0
          ? { toolCalls: [tool('send_message', { to: 'b', content: 'What is the deadline?' })] }
          : 'Task done.';
      },
      b: () => 'Noon.',
    }),
  );
  await team.run({ input: 'go' });
  // The idle notices to the lead aside (message-kinds.test.ts has them).
  const messages = told(of('team:message-sent')).map((event) => [
    event.data.from,
    event.data.to,
    event.data.content,
  ]);
  expect(messages).toEqual([
    ['a', ['b'], 'What is the deadline?'],
    ['b', ['a'], 'Noon.'],
  ]);
  // a was woken by b's automatic reply and replied in text, which is not sent anywhere.
  expect(
    of('team:member-started').filter((event) => event.data.member === 'a' && event.data.reason === 'message'),
  ).toHaveLength(1);
});

test('a member that answers by itself gets no automatic reply sent for it', async () => {
  const { team, of } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                tool('send_message', { to: 'a', content: 'Ready?' }),
                createTask({ title: 'T', assignee: 'b' }),
              ],
            }
          : call.reason === 'synthesis'
            ? 'Final'
            : 'ok',
      a: (call) =>
        call.step === 0 && call.prompt.includes('Ready?')
          ? { toolCalls: [tool('send_message', { to: 'lead', content: 'Ready.' })] }
          : 'Said so.',
    }),
  );
  await team.run({ input: 'go' });
  // a answered the lead itself: nothing automatic from a. The lead did not answer a: its
  // reply went back automatically, and a's reply to that automatic one went nowhere.
  expect(
    told(of('team:message-sent')).map((event) => [event.data.from, event.data.content, event.data.automatic]),
  ).toEqual([
    ['lead', 'Ready?', false],
    ['a', 'Ready.', false],
    ['lead', 'ok', true],
  ]);
});

test('a reply longer than a result or a message may be is kept up to the limit, marked cut, and never fails the run', async () => {
  const long = 'x'.repeat(60_000);
  const { team, of } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ title: 'Long', assignee: 'a' }),
                tool('send_message', { to: 'b', content: 'Say a lot' }),
              ],
            }
          : 'Final',
      a: () => long,
      b: () => long,
    }),
    { members: ['a', 'b'] },
  );
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  const task = result.teamResult.tasks[0];
  expect(task?.result).toHaveLength(50_000);
  expect(task?.result).toMatch(/\n\[cut: \d+ more characters; the whole reply is in the run's event log\]$/);
  const reply = of('team:message-sent').find((event) => event.data.automatic);
  expect(reply?.data.content).toHaveLength(20_000);
  expect(reply?.data.content).toContain('[cut: ');
  // The whole text is in the log.
  expect(of('team:member-finished').find((event) => event.data.member === 'a')?.data.output).toBe(long);
});
