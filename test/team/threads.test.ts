import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';

const script = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? {
          toolCalls: [
            createTask({ title: 'One', assignee: 'a' }),
            createTask({ title: 'Two', assignee: 'a', dependsOn: ['task-1'] }),
          ],
        }
      : 'Final',
  a: (call) => `done ${call.taskId}`,
});

function promptSizes(model: { doStreamCalls: { prompt: unknown[] }[] }, count: number) {
  return model.doStreamCalls.slice(0, count).map((call) => call.prompt.length);
}

test('without a threadId every turn starts fresh', async () => {
  const { team, model } = testTeam(script, { members: ['a'] });
  await team.run({ input: 'go' });
  const memberCalls = model.doStreamCalls.filter((call) =>
    JSON.stringify(call.prompt).includes('a member of the team'),
  );
  expect(memberCalls.map((call) => call.prompt.length)).toEqual([2, 2]);
  expect(promptSizes(model, 1)).toEqual([2]);
});

test('with a threadId a member’s turn carries its earlier turns, across runs too', async () => {
  const { team, model } = testTeam(script, { members: ['a'] });
  await team.run({ input: 'go', threadId: 'story-1' });
  const memberCalls = () =>
    model.doStreamCalls.filter((call) => JSON.stringify(call.prompt).includes('a member of the team'));
  const [first, second] = memberCalls();
  expect(first?.prompt.length).toBe(2);
  // system, turn 1's briefing and reply, turn 2's briefing
  expect(second?.prompt.length).toBe(4);
  expect(JSON.stringify(second?.prompt)).toContain('done task-1');
  await team.run({ input: 'again', threadId: 'story-1' });
  expect(memberCalls()[2]?.prompt.length).toBe(6);
  await team.run({ input: 'elsewhere', threadId: 'story-2' });
  expect(memberCalls()[4]?.prompt.length).toBe(2);
});
