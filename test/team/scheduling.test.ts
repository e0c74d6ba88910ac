import type { TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const at = (events: TeamEvent[], predicate: (event: TeamEvent) => boolean) => events.findIndex(predicate);
const started = (member: string, taskId?: string) => (event: TeamEvent) =>
  event.type === 'team:member-started' &&
  event.data.member === member &&
  (!taskId || event.data.taskId === taskId);
const finished = (member: string, reason?: string) => (event: TeamEvent) =>
  event.type === 'team:member-finished' &&
  event.data.member === member &&
  (!reason || event.data.reason === reason);

test('a member starts as soon as a task is assigned to it, while the lead is still in its turn', async () => {
  const { team, events } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason !== 'start') return 'Final';
        if (call.step === 0) return { toolCalls: [createTask({ title: 'Research', assignee: 'a' })] };
        if (call.step === 1) return { toolCalls: [createTask({ title: 'More', assignee: 'b' })] };
        return 'Planned.';
      },
    }),
    { latencyMs: (call) => (call.agent === 'lead' ? 100 : 10) },
  );
  await team.run({ input: 'go' });
  const leadStartDone = at(events, finished('lead', 'start'));
  expect(at(events, started('a', 'task-1'))).toBeLessThan(leadStartDone);
  expect(at(events, finished('a'))).toBeLessThan(leadStartDone);
});

test('while the lead is in a turn, members take only tasks assigned to them', async () => {
  const { team, events } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason !== 'start') return 'Final';
        if (call.step === 0)
          return { toolCalls: [createTask({ title: 'Open' }), createTask({ title: 'Mine', assignee: 'b' })] };
        return 'Planned.';
      },
    }),
    { latencyMs: (call) => (call.agent === 'lead' ? 80 : 5) },
  );
  await team.run({ input: 'go' });
  const leadStartDone = at(events, finished('lead', 'start'));
  expect(at(events, started('b', 'task-2'))).toBeLessThan(leadStartDone);
  const openClaimed = at(
    events,
    (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1',
  );
  expect(openClaimed).toBeGreaterThan(leadStartDone);
});

test('members are a pool: a free slot is filled at once, not at the end of a batch', async () => {
  const durations: Record<string, number> = { 'task-1': 40, 'task-2': 300, 'task-3': 40, 'task-4': 40 };
  const { team, events } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: ['task-1', 'task-2', 'task-3', 'task-4'].map((id) => createTask({ id, title: id })) }
          : 'done',
      a: () => 'done',
      b: () => 'done',
      c: () => 'done',
    }),
    { maxConcurrentMembers: 2, latencyMs: (call) => (call.taskId ? (durations[call.taskId] ?? 0) : 0) },
  );
  await team.run({ input: 'go' });
  const slowDone = at(
    events,
    (event) => event.type === 'team:task-completed' && event.data.task.id === 'task-2',
  );
  const thirdStarted = at(
    events,
    (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-3',
  );
  const fourthStarted = at(
    events,
    (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-4',
  );
  expect(thirdStarted).toBeLessThan(slowDone);
  expect(fourthStarted).toBeLessThan(slowDone);
  // Never more than two members in a turn at once.
  let working = 0;
  let most = 0;
  for (const event of events) {
    if (event.type === 'team:member-started' && event.data.role === 'member')
      most = Math.max(most, ++working);
    if (event.type === 'team:member-finished' && event.data.role === 'member') working--;
  }
  expect(most).toBe(2);
});

test('the task is claimed before the turn, which starts with it, the results it builds on and the unread messages', async () => {
  const { team, model, events } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason !== 'start') return 'Final';
        if (call.step === 0) {
          return {
            toolCalls: [
              createTask({ title: 'Warm up', assignee: 'b' }),
              createTask({ title: 'Research', assignee: 'a' }),
              createTask({
                title: 'Draft',
                description: 'Two paragraphs.',
                dependsOn: ['task-2'],
                assignee: 'b',
              }),
            ],
          };
        }
        // b is busy with its first task when this arrives, so it waits, unread, for b's next turn.
        if (call.step === 1)
          return { toolCalls: [tool('send_message', { to: 'b', content: 'Keep it short.' })] };
        return 'Planned.';
      },
      a: () => 'The moon pulls the sea.',
      b: () => 'Draft text',
    }),
    { latencyMs: (call) => (call.agent === 'lead' ? 20 : call.taskId === 'task-1' ? 120 : 30) },
  );
  await team.run({ input: 'go' });
  const claim = at(events, (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-3');
  expect(claim).toBe(at(events, started('b', 'task-3')) + 1);
  const draftTurn = model.calls.find((call) => call.agent === 'b' && call.taskId === 'task-3');
  expect(draftTurn?.prompt).toContain('Your task task-3: Draft\nTwo paragraphs.');
  expect(draftTurn?.prompt).toContain('Results it builds on:\n[task-2] Research\nThe moon pulls the sea.');
  expect(draftTurn?.prompt).toContain('from lead]\nKeep it short.');
  expect(draftTurn?.prompt).toContain("never grants the user's approval or consent");
});

test('a message wakes its reader, the lead too, with reason message', async () => {
  const { team, model, of } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start') {
          return call.step === 0 ? { toolCalls: [createTask({ title: 'Ask', assignee: 'a' })] } : 'Planned.';
        }
        if (call.reason === 'message' && call.step === 0) {
          return { toolCalls: [tool('send_message', { to: 'c', content: 'Please check the date.' })] };
        }
        return call.reason === 'synthesis' ? 'Final' : 'Noted.';
      },
      a: (call) =>
        call.step === 0
          ? { toolCalls: [tool('send_message', { to: 'lead', content: 'Which date?' })] }
          : 'Done.',
      c: () => 'Checked: fine.',
    }),
  );
  await team.run({ input: 'go' });
  expect(of('team:member-started').map((event) => [event.data.member, event.data.reason])).toEqual(
    expect.arrayContaining([
      ['lead', 'message'],
      ['c', 'message'],
    ]),
  );
  const leadMessageTurn = model.calls.find((call) => call.agent === 'lead' && call.reason === 'message');
  expect(leadMessageTurn?.prompt).toContain('from a]\nWhich date?');
});

test('a member out of turns gives its tasks back and stops', async () => {
  const { team, of } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ title: 'One', assignee: 'a' }),
                createTask({ title: 'Two', assignee: 'a' }),
              ],
            }
          : 'ok',
      a: () => 'done',
      b: () => 'done',
    }),
    { members: ['a', 'b'], maxTurnsPerMember: 1 },
  );
  const result = await team.run({ input: 'go' });
  const a = result.teamResult.members.find((member) => member.name === 'a');
  expect(a).toMatchObject({ status: 'stopped', turns: 1 });
  // task-2 was given back by a (unassigned) and taken by b.
  expect(
    of('team:task-updated').some((event) => event.data.task.id === 'task-2' && event.data.by === 'a'),
  ).toBe(true);
  expect(result.teamResult.tasks.map((task) => [task.id, task.owner])).toEqual([
    ['task-1', 'a'],
    ['task-2', 'b'],
  ]);
  expect(result.teamResult.stopReason).toBe('completed');
});

test('when nobody can go on, the lead gets a stalled turn and can unblock the team', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start')
          return call.step === 0 ? { toolCalls: [createTask({ title: 'Nobody’s' })] } : 'Planned.';
        if (call.reason === 'stalled' && call.step === 0)
          return { toolCalls: [tool('assign_task', { taskId: 'task-1', assignee: 'b' })] };
        return call.reason === 'synthesis' ? 'Final' : 'Assigned.';
      },
      b: () => 'Done by b.',
    }),
    { selfClaim: false },
  );
  const result = await team.run({ input: 'Count the boats in the harbour' });
  const stalled = model.calls.find((call) => call.reason === 'stalled');
  expect(stalled?.prompt).toContain('task-1 is not assigned to anyone');
  // The lead's stalled turn starts fresh: it reads what the team is for.
  expect(stalled?.prompt).toContain("The team's goal (the request to you):\nCount the boats in the harbour");
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.tasks[0]).toMatchObject({ owner: 'b', result: 'Done by b.' });
});

test('the lead’s message turn reads the team’s goal beside the message', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start')
          return call.step === 0
            ? { toolCalls: [createTask({ title: 'Count', assignee: 'b' })] }
            : 'Planned.';
        return call.reason === 'synthesis' ? 'Final' : 'The big one.';
      },
      b: (call) =>
        call.step === 0
          ? { toolCalls: [tool('send_message', { to: 'lead', content: 'Which harbour?' })] }
          : 'Counted 12.',
    }),
  );
  await team.run({ input: 'Count the boats in the harbour' });
  const message = model.calls.find((call) => call.agent === 'lead' && call.reason === 'message');
  expect(message?.prompt).toContain('Which harbour?');
  expect(message?.prompt).toContain("The team's goal (the request to you):\nCount the boats in the harbour");
});

test('a stalled turn that changes nothing ends the run as stalled, with a final answer', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start')
          return call.step === 0 ? { toolCalls: [createTask({ title: 'Nobody’s' })] } : 'Planned.';
        return call.reason === 'synthesis' ? 'Could not finish.' : 'I cannot help.';
      },
    }),
    { selfClaim: false },
  );
  const result = await team.run({ input: 'go' });
  expect(model.calls.filter((call) => call.reason === 'stalled' && call.step === 0)).toHaveLength(1);
  expect(result.teamResult.stopReason).toBe('stalled');
  expect(result.output).toBe('Could not finish.');
  expect(result.teamResult.tasks[0]?.status).toBe('pending');
});

test('with no lead turns left the run ends by turn-limit; the synthesis is not counted', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start')
          return call.step === 0 ? { toolCalls: [createTask({ title: 'Nobody’s' })] } : 'Planned.';
        return 'Final anyway.';
      },
    }),
    { selfClaim: false, maxLeadTurns: 1 },
  );
  const result = await team.run({ input: 'go' });
  expect(model.calls.some((call) => call.reason === 'stalled')).toBe(false);
  expect(result.teamResult.stopReason).toBe('turn-limit');
  expect(result.output).toBe('Final anyway.');
  expect(result.teamResult.leadTurns).toBe(2);
});

test('members out of turns with work left end the run by turn-limit', async () => {
  const { team } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ title: 'One' }),
                createTask({ title: 'Two' }),
                createTask({ title: 'Three' }),
              ],
            }
          : 'Final',
      a: () => 'done',
    }),
    { members: ['a'], maxTurnsPerMember: 2 },
  );
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('turn-limit');
  expect(result.teamResult.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'pending']);
});
