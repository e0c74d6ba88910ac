import { foldEvents, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { finished, log, start, started } from '../run/events.js';

test('folding a finished run’s log gives back its result: turns, usage, outputs and statuses', async () => {
  const { team } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'One' }), createTask({ title: 'Two' })] }
          : 'The answer.',
      a: (call) =>
        call.step === 0 ? { toolCalls: [tool('send_message', { to: 'b', content: 'hi' })] } : 'A done',
    }),
  );
  const run = await team.start({ input: 'go' });
  const events: TeamEvent[] = [];
  for await (const event of run.events()) events.push(event);
  const result = await run.result;
  const state = foldEvents(events);
  expect(state.stopReason).toBe('completed');
  expect(state.usage).toEqual(result.usage.total);
  for (const [name, agent] of state.agents) {
    expect(agent.turns).toBe(result.agentResults[name]?.turns);
    expect(agent.usage).toEqual(result.usage.byAgent[name]);
    expect(agent.lastOutput).toBe(result.agentResults[name]?.output);
  }
  expect([...state.tasks.values()]).toEqual(result.teamResult.tasks);
  expect(state.messages.map((message) => message.content)).toContain('hi');
  // A store persists events as JSON: the fold of the round-tripped log is the same.
  expect(foldEvents(JSON.parse(JSON.stringify(events)))).toEqual(state);
});

test('a turn counts when it starts; the synthesis does not count against the lead’s bound', () => {
  const state = foldEvents(
    log(
      start(),
      started('lead', 1, 'start'),
      finished('lead', 1, 'start', 'Planned.'),
      started('lead', 2, 'synthesis'),
    ),
  );
  const lead = state.agents.get('lead');
  expect(lead).toMatchObject({ status: 'working', reason: 'synthesis', turns: 2, countedTurns: 1 });
  expect(state.startOutput).toBe('Planned.');
});

test('the agents a turn messaged are remembered for that turn only', () => {
  const sent = {
    type: 'team:message-sent',
    data: { id: 'm1', from: 'a', to: ['b'], broadcast: false, content: 'x', automatic: false },
  } as const;
  const during = foldEvents(log(start(), started('a', 1, 'message'), sent));
  expect([...(during.agents.get('a')?.answered ?? [])]).toEqual(['b']);
  const after = foldEvents(log(start(), started('a', 1, 'message'), sent, finished('a', 1, 'message')));
  expect(after.agents.get('a')?.answered.size).toBe(0);
});

test('a resume ends the turns a crash cut off and clears the last stop and failure', () => {
  const state = foldEvents(
    log(
      start(),
      started('lead', 1, 'start'),
      finished('lead', 1, 'start'),
      started('a', 1, 'task', 'task-1'),
      started('b', 1, 'task', 'task-2'),
      finished('b', 1, 'task', '', 'failed'),
      {
        type: 'team:complete',
        data: {
          stopReason: 'failed',
          tasks: { total: 2, pending: 2, inProgress: 0, completed: 0, closed: 0, deleted: 0 },
          leadTurns: 1,
          memberTurns: 2,
          error: 'b: boom',
        },
      },
      { type: 'team:resumed', data: { requeued: ['task-1'] } },
    ),
  );
  expect(state.agents.get('a')).toMatchObject({ status: 'idle', turns: 1, taskId: null });
  expect(state.agents.get('b')?.status).toBe('failed');
  expect(state.failure).toBeNull();
  expect(state.stopReason).toBeNull();
});

test('an event folded twice counts once', () => {
  const events = log(start(), started('a', 1, 'task'));
  const state = foldEvents([...events, ...events]);
  expect(state.agents.get('a')?.countedTurns).toBe(1);
});
