import { Agent, Team, type TeamEvent, type TeamEventMap } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { beforeEach, expect, expectTypeOf, test, vi } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

// a writes to the lead once the lead's planning turn made its last model call: the message
// then waits for a turn of the lead's own (one that came mid-turn would be given to that turn).
let planned: () => void = () => {};
let plannedAt = new Promise<void>((resolve) => {
  planned = resolve;
});
const newsroomScript = byAgent({
  lead: (call) => {
    if (call.reason === 'start' && call.step === 2) planned();
    if (call.reason === 'start' && call.step === 0) {
      return {
        toolCalls: [
          createTask({ title: 'Research', assignee: 'a' }),
          createTask({ title: 'Draft', dependsOn: ['task-1'] }),
          createTask({ title: 'Spare', dependsOn: ['task-2'] }),
        ],
      };
    }
    if (call.reason === 'start' && call.step === 1) {
      return { toolCalls: [tool('assign_task', { taskId: 'task-2', assignee: 'b' })] };
    }
    if (call.reason === 'message' && call.step === 0) {
      return {
        toolCalls: [tool('update_task', { taskId: 'task-3', status: 'completed', note: 'not needed' })],
      };
    }
    // An empty final reply: nothing for the harness to send back for the lead.
    if (call.reason === 'message') return '';
    return call.reason === 'synthesis' ? 'Final' : 'ok';
  },
  a: async (call) => {
    if (call.reason !== 'task' || call.step !== 0) return 'The moon pulls the sea.';
    await plannedAt;
    return {
      toolCalls: [
        tool('update_task', { taskId: 'task-1', note: 'half way' }),
        tool('send_message', { to: 'lead', content: 'Drop the spare task?' }),
      ],
    };
  },
  b: () => 'Draft done.',
});

// Each run of the script waits for its own lead's planning.
beforeEach(() => {
  plannedAt = new Promise<void>((resolve) => {
    planned = resolve;
  });
});

test('a run emits the seed’s events with their data, team:start first and team:complete last', async () => {
  const { team, events } = testTeam(newsroomScript, {
    members: ['a', 'b'],
    latencyMs: (call) => (call.agent === 'b' ? 60 : 5),
  });
  const result = await team.run({ input: 'go' });
  expect(events[0]).toMatchObject({ type: 'team:start', data: { lead: 'lead', members: ['a', 'b'] } });
  expect(events.at(-1)).toMatchObject({
    type: 'team:complete',
    data: {
      stopReason: 'completed',
      tasks: { total: 3, completed: 3, closed: 1, pending: 0, inProgress: 0, deleted: 0 },
      leadTurns: 3,
      memberTurns: 2,
      error: null,
      // The final answer: the lead's synthesis.
      output: result.output,
    },
  });
  expect(result.output).not.toBe('');
  const types = new Set(events.map((event) => event.type));
  for (const type of [
    'team:member-started',
    'team:member-finished',
    'team:task-created',
    'team:task-assigned',
    'team:task-claimed',
    'team:task-updated',
    'team:task-completed',
    'team:message-sent',
    'team:turn-usage',
  ]) {
    expect(types).toContain(type);
  }
  const get = <K extends keyof TeamEventMap>(type: K) =>
    events.filter((event) => event.type === type).map((event) => event.data as TeamEventMap[K]);
  expect(get('team:task-assigned')[0]).toMatchObject({
    assignee: 'b',
    by: 'lead',
    previousOwner: null,
    task: { id: 'task-2', assignee: 'b' },
  });
  expect(get('team:task-updated')[0]).toMatchObject({
    by: 'a',
    from: 'in_progress',
    to: 'in_progress',
    task: { note: 'half way' },
  });
  expect(get('team:task-completed').find((data) => data.task.id === 'task-1')).toMatchObject({
    by: 'a',
    unblocked: ['task-2'],
  });
  expect(get('team:task-completed').find((data) => data.task.id === 'task-3')?.task.closed).toBe(true);
  expect(get('team:message-sent')[0]).toMatchObject({
    from: 'a',
    to: ['lead'],
    broadcast: false,
    content: 'Drop the spare task?',
  });
  expect(get('team:member-started')).toContainEqual({
    member: 'a',
    role: 'member',
    turn: 1,
    reason: 'task',
    taskId: 'task-1',
    messageIds: [],
  });
  expect(get('team:member-finished')).toContainEqual({
    member: 'a',
    role: 'member',
    turn: 1,
    reason: 'task',
    status: 'idle',
    output: 'The moon pulls the sea.',
    error: null,
  });
  // Every event is stamped with its place in the run's log.
  // Every logged event has its place; the live text between them (not logged) has none of its own.
  const logged = events.filter((event) => event.type !== 'team:text-delta');
  expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
  expect(new Set(events.map((event) => event.runId)).size).toBe(1);
});

test('TeamEventMap types every event’s data for team.on', () => {
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model: scriptedModel([]), instructions: '' }),
    members: [new Agent({ name: 'a', model: scriptedModel([]), instructions: '' })],
  });
  team.on('team:task-claimed', (event) => {
    expectTypeOf(event.data.member).toEqualTypeOf<string>();
    expectTypeOf(event.data.task.id).toEqualTypeOf<string>();
  });
  team.on('team:complete', (event) =>
    expectTypeOf(event.data.stopReason).toEqualTypeOf<TeamEventMap['team:complete']['stopReason']>(),
  );
  expectTypeOf<TeamEvent<'team:message-sent'>['data']['to']>().toEqualTypeOf<readonly string[]>();
});

test('a listener that throws is reported and does not break the run or other listeners', async () => {
  const report = vi.spyOn(console, 'error').mockImplementation(() => {});
  const { team, events } = testTeam(newsroomScript, { members: ['a', 'b'] });
  team.on('team:task-claimed', () => {
    throw new Error('listener bug');
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  expect(events.at(-1)?.type).toBe('team:complete');
  expect(report).toHaveBeenCalledWith(
    'agent-teams: a listener of team:task-claimed threw:',
    expect.any(Error),
  );
  report.mockRestore();
});

test('the result has every agent’s last output, the members with status and turns, and usage', async () => {
  const { team } = testTeam(newsroomScript, { members: ['a', 'b'] });
  const result = await team.run({ input: 'go' });
  expect(result.agentResults.a).toMatchObject({
    agent: 'a',
    role: 'member',
    output: 'The moon pulls the sea.',
    turns: 1,
  });
  expect(result.agentResults.lead?.output).toBe('Final');
  expect(result.teamResult.members).toEqual([
    { name: 'lead', role: 'lead', status: 'idle', turns: 3, taskId: null },
    { name: 'a', role: 'member', status: 'idle', turns: 1, taskId: null },
    { name: 'b', role: 'member', status: 'idle', turns: 1, taskId: null },
  ]);
  const { total, byAgent: perAgent } = result.usage;
  expect(perAgent.a?.inputTokens).toBeGreaterThan(0);
  expect(total.inputTokens).toBe(Object.values(perAgent).reduce((sum, usage) => sum + usage.inputTokens, 0));
  expect(total.totalTokens).toBe(total.inputTokens + total.outputTokens);
  // The scripted model has no price: tokens only.
  expect(total.cost).toBeUndefined();
});

function pricedTeam(modelId: string, pricing?: Record<string, { input: number; output: number }>) {
  const model = scriptedModel(() => 'Answered.', { modelId });
  return new Team({
    name: 'priced',
    lead: new Agent({ name: 'lead', model, instructions: 'Answer.' }),
    members: [new Agent({ name: 'a', model, instructions: '' })],
    pricing,
  });
}

test('cost is computed where the model is priced, and the pricing option overrides the table', async () => {
  const builtIn = await pricedTeam('gpt-4o-mini-2024-07-18').run({ input: 'go' });
  const { inputTokens, outputTokens, cost } = builtIn.usage.total;
  expect(cost).toBeCloseTo((inputTokens * 0.15 + outputTokens * 0.6) / 1_000_000, 12);
  const custom = await pricedTeam('house-model', { 'house-model': { input: 1000, output: 2000 } }).run({
    input: 'go',
  });
  const usage = custom.usage.byAgent.lead;
  expect(usage?.cost).toBeCloseTo(
    ((usage?.inputTokens ?? 0) * 1000 + (usage?.outputTokens ?? 0) * 2000) / 1_000_000,
    9,
  );
});

test('turn usage events carry each turn’s tokens and model', async () => {
  const { team, of } = testTeam(newsroomScript, { members: ['a', 'b'] });
  const result = await team.run({ input: 'go' });
  const usages = of('team:turn-usage');
  expect(usages.map((event) => event.data.model)).toEqual(usages.map(() => 'scripted/scripted'));
  const leadTokens = usages
    .filter((event) => event.data.member === 'lead')
    .reduce((sum, event) => sum + event.data.usage.totalTokens, 0);
  expect(leadTokens).toBe(result.usage.byAgent.lead?.totalTokens);
});
