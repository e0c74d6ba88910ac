import { isTeamError } from 'agent-teams';
import { manualClock } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';

const plan = (call: { reason?: string; step: number }) =>
  call.reason === 'start' && call.step === 0
    ? {
        toolCalls: [
          createTask({ title: 'Fragile', assignee: 'a' }),
          createTask({ title: 'Solid', assignee: 'b' }),
        ],
      }
    : 'Final';

const breaks = () => {
  throw new Error('model exploded');
};

test('a member whose turn throws fails the run, and nothing is left in progress', async () => {
  const { team, of } = testTeam(byAgent({ lead: plan, a: breaks, b: () => 'done' }), { members: ['a', 'b'] });
  const error = await team.run({ input: 'go' }).catch((caught) => caught);
  expect(isTeamError(error, 'agent-failed')).toBe(true);
  expect(error.message).toBe('The agent a failed: model exploded');
  const complete = of('team:complete')[0]?.data;
  expect(complete).toMatchObject({ stopReason: 'failed', error: 'a: model exploded' });
  expect(complete?.tasks.inProgress).toBe(0);
  expect(of('team:member-finished').find((event) => event.data.member === 'a')?.data).toMatchObject({
    status: 'failed',
    error: 'model exploded',
  });
});

test.each([
  ['errorHandling skip', { errorHandling: { onAgentFailure: 'skip' as const } }],
  ['partialResults', { partialResults: true }],
])('with %s a failed member is marked failed and its tasks go back to the list', async (_name, options) => {
  const { team } = testTeam(byAgent({ lead: plan, a: breaks, b: () => 'done' }), {
    members: ['a', 'b'],
    ...options,
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.members.find((member) => member.name === 'a')?.status).toBe('failed');
  // a's task went back unassigned, and b took it.
  expect(result.teamResult.tasks.map((task) => [task.title, task.status, task.owner])).toEqual([
    ['Fragile', 'completed', 'b'],
    ['Solid', 'completed', 'b'],
  ]);
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.output).toBe('Final');
});

test('a failure of the lead always fails the run', async () => {
  const { team } = testTeam(byAgent({ lead: breaks }), { partialResults: true });
  await expect(team.run({ input: 'go' })).rejects.toMatchObject({
    code: 'agent-failed',
    message: 'The agent lead failed: model exploded',
  });
});

test('the signal aborts a run cleanly: stopReason aborted, nothing left in progress', async () => {
  const controller = new AbortController();
  const { team, of } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ title: 'Slow', assignee: 'a' }),
                createTask({ title: 'Also slow', assignee: 'b' }),
              ],
            }
          : 'Planned.',
    }),
    { members: ['a', 'b'], latencyMs: (call) => (call.agent === 'lead' ? 0 : 3_600_000) },
  );
  let claims = 0;
  team.on('team:task-claimed', () => {
    if (++claims === 2) setTimeout(() => controller.abort(), 5);
  });
  // The members' model calls would take an hour: the run ends only because the abort stops them.
  const result = await team.run({ input: 'go', signal: controller.signal });
  expect(result.teamResult.stopReason).toBe('aborted');
  expect(result.teamResult.tasks.every((task) => task.status === 'pending')).toBe(true);
  // Assignments stay, so a resume gives each task to the same member.
  expect(result.teamResult.tasks.map((task) => task.assignee)).toEqual(['a', 'b']);
  expect(of('team:complete')[0]?.data.stopReason).toBe('aborted');
});

test('a signal aborted before the run starts ends it at once', async () => {
  const { team, model } = testTeam(() => 'x');
  const result = await team.run({ input: 'go', signal: AbortSignal.abort() });
  expect(result.teamResult.stopReason).toBe('aborted');
  expect(model.calls).toHaveLength(0);
});

test('a turn past turnTimeoutMs is stopped and handled by the failure policy (on the team’s clock)', async () => {
  const clock = manualClock();
  const { team, of, model } = testTeam(byAgent({ lead: plan, a: () => 'never seen', b: () => 'done' }), {
    members: ['a', 'b'],
    errorHandling: { onAgentFailure: 'skip' },
    // a's model never answers within its bound; b's answers at once.
    latencyMs: (call) => (call.agent === 'a' ? 3_600_000 : 0),
    agents: { a: { turnTimeoutMs: 300_000 } },
    clock,
  });
  const run = await team.start({ input: 'go' });
  // Once a's turn is calling its model, its bound passes on the clock (and nothing else's does).
  while (!model.calls.some((call) => call.agent === 'a'))
    await new Promise((resolve) => setTimeout(resolve, 5));
  clock.advance(299_999);
  expect(of('team:member-finished').some((event) => event.data.member === 'a')).toBe(false);
  clock.advance(1);
  const result = await run.result;
  expect(of('team:member-finished').find((event) => event.data.member === 'a')?.data).toMatchObject({
    status: 'failed',
    error: 'The turn of a took longer than 300000 ms (turnTimeoutMs) and was stopped.',
  });
  expect(result.teamResult.members.find((member) => member.name === 'a')?.status).toBe('failed');
  // Its task went back to the list, and b did it.
  expect(result.teamResult.tasks.find((task) => task.title === 'Fragile')).toMatchObject({
    status: 'completed',
    owner: 'b',
  });
});

test('the team’s turnTimeoutMs bounds every turn, and a bad one is refused', async () => {
  const clock = manualClock();
  const { team, model } = testTeam(byAgent({ lead: plan, a: () => 'x', b: () => 'done' }), {
    members: ['a', 'b'],
    latencyMs: (call) => (call.agent === 'a' ? 3_600_000 : 0),
    turnTimeoutMs: 600_000,
    clock,
  });
  const run = await team.start({ input: 'go' });
  while (!model.calls.some((call) => call.agent === 'a'))
    await new Promise((resolve) => setTimeout(resolve, 5));
  clock.advance(600_000);
  const error = await run.result.catch((caught) => caught);
  expect(isTeamError(error, 'agent-failed')).toBe(true);
  expect(error.message).toContain('longer than 600000 ms (turnTimeoutMs)');
  expect(() => testTeam(() => 'x', { turnTimeoutMs: 0 })).toThrow(
    /turnTimeoutMs of the team \S+ must be a whole number of ms from 1 to 2147483647 \(about 24\.8 days\), not 0/,
  );
});
