import { isTeamError, MemoryStore } from 'agent-teams';
import { manualClock } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';

const plan = (count: number) => (call: { reason?: string; step: number }) => {
  if (call.reason === 'synthesis') return 'What we have.';
  if (call.reason === 'start' && call.step === 0) {
    return { toolCalls: Array.from({ length: count }, (_, n) => createTask({ title: `Part ${n + 1}` })) };
  }
  return 'Planned.';
};
const work = (call: { taskId?: string }) => `done ${call.taskId}`;

test('a run that reaches its token budget starts no new turn, and ends with budget after a synthesis', async () => {
  const { team, of } = testTeam(byAgent({ lead: plan(6), a: work }), {
    members: ['a'],
    // The lead's planning turn spends about 2,500 scripted tokens and each task about 700.
    budget: { maxTokens: 4_000 },
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('budget');
  expect(result.output).toBe('What we have.');
  const reached = of('team:budget-reached')[0]?.data;
  expect(reached).toMatchObject({ agent: null, bound: 'maxTokens', limit: 4_000 });
  expect(reached?.used).toBeGreaterThanOrEqual(4_000);
  const done = result.teamResult.tasks.filter((task) => task.status === 'completed');
  expect(done.length).toBeGreaterThan(0);
  expect(done.length).toBeLessThan(6);
  // After the budget was reached only the synthesis started.
  const after = of('team:member-started').filter(
    (event) => event.seq > (of('team:budget-reached')[0]?.seq ?? 0),
  );
  expect(after.map((event) => event.data.reason)).toEqual(['synthesis']);
  // Its tokens are allowed over the budget, and reported.
  expect(result.usage.total.totalTokens).toBeGreaterThan(reached?.used ?? 0);
});

test('a run’s own budget replaces the team’s', async () => {
  const { team } = testTeam(byAgent({ lead: plan(2), a: work }), {
    members: ['a'],
    budget: { maxTokens: 10 },
  });
  const result = await team.run({ input: 'go', budget: { maxTokens: 1_000_000 } });
  expect(result.teamResult.stopReason).toBe('completed');
});

test('a time budget lets running turns end their current step, then ends the run with budget (on the team’s clock)', async () => {
  const clock = manualClock();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Members' model calls wait until the time is up, so the budget meets them working.
  const slow = async (call: { taskId?: string }) => {
    await held;
    return work(call);
  };
  const { team, of, model } = testTeam(byAgent({ lead: plan(4), a: slow, b: slow }), {
    members: ['a', 'b'],
    budget: { maxDurationMs: 3_600_000 },
    turnTimeoutMs: 7_200_000,
    clock,
    store: new MemoryStore({ now: clock.date }),
  });
  const run = await team.start({ input: 'go' });
  while (model.calls.filter((call) => call.agent !== 'lead').length < 2)
    await new Promise((r) => setTimeout(r, 5));
  clock.advance(3_600_000);
  for await (const event of run.events()) if (event.type === 'team:budget-reached') break;
  release();
  const result = await run.result;
  expect(result.teamResult.stopReason).toBe('budget');
  expect(of('team:budget-reached')[0]?.data).toMatchObject({
    agent: null,
    bound: 'maxDurationMs',
    limit: 3_600_000,
  });
  // The two turns that were running ended their step; no other member turn began.
  expect(model.calls.filter((call) => call.agent !== 'lead')).toHaveLength(2);
  expect(result.teamResult.tasks.filter((task) => task.status === 'in_progress')).toEqual([]);
});

test('an agent that reaches its own budget stops, and its tasks go back for the others', async () => {
  const { team, of } = testTeam(byAgent({ lead: plan(4), a: work, b: work }), {
    members: ['a', 'b'],
    maxConcurrentMembers: 1,
    agents: { a: { budget: { maxTokens: 1 } } },
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.members.find((member) => member.name === 'a')?.status).toBe('stopped');
  expect(result.agentResults.a?.turns).toBe(1);
  expect(of('team:budget-reached').map((event) => event.data.agent)).toEqual(['a']);
  expect(result.teamResult.tasks.every((task) => task.status === 'completed')).toBe(true);
});

test('a budget in USD on an unpriced model, or a bound the budget does not have, is refused at start', async () => {
  const { team } = testTeam(byAgent({ lead: plan(1) }), { members: ['a'] });
  const error = await team.run({ input: 'go', budget: { maxCostUsd: 1 } }).catch((caught) => caught);
  expect(isTeamError(error, 'invalid-option')).toBe(true);
  expect(error.message).toBe(
    "A budget in USD needs every model it counts priced: lead has no price for model scripted (give one in the team's pricing option).",
  );
  await expect(team.run({ input: 'go', budget: { maxTurns: 3 } as never })).rejects.toThrow(
    'Unknown option "maxTurns" for budget of a run; the known ones are maxTokens, maxCostUsd, maxDurationMs.',
  );
  const priced = testTeam(byAgent({ lead: plan(1), a: work }), {
    members: ['a'],
    pricing: { scripted: { input: 1, output: 1 } },
  });
  await expect(priced.team.run({ input: 'go', budget: { maxCostUsd: 5 } })).resolves.toMatchObject({
    teamResult: { stopReason: 'completed' },
  });
});
