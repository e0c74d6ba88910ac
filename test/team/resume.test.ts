import { FileStore, MemoryStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const script = byAgent({
  lead: (call) => (call.reason === 'start' ? 'Go.' : call.reason === 'synthesis' ? 'Final' : ''),
  a: (call) => `done ${call.taskId}`,
  b: (call) => `done ${call.taskId}`,
});

test('fresh: false after an abort continues the same run: results kept, counters on, seeds not added twice', async () => {
  const store = new MemoryStore();
  const controller = new AbortController();
  let slow = true;
  const { team, of } = testTeam(script, {
    members: ['a', 'b'],
    store,
    tasks: [
      { id: 'quick', title: 'Quick', assignee: 'a' },
      { id: 'slow', title: 'Slow', assignee: 'b' },
    ],
    latencyMs: (call) => (call.taskId === 'slow' && slow ? 3_600_000 : 0),
  });
  team.on('team:task-completed', (event) => {
    if (event.data.task.id === 'quick') controller.abort();
  });
  const first = await team.run({ input: 'Do both', signal: controller.signal });
  expect(first.teamResult.stopReason).toBe('aborted');
  const quick = first.teamResult.tasks.find((task) => task.id === 'quick');
  expect(quick?.status).toBe('completed');

  slow = false;
  const second = await team.run({ input: 'Do both', fresh: false });
  expect(second.runId).toBe(first.runId);
  expect(second.teamResult.stopReason).toBe('completed');
  expect(second.teamResult.tasks.map((task) => task.id)).toEqual(['quick', 'slow']);
  expect(second.teamResult.tasks.find((task) => task.id === 'quick')).toEqual(quick);
  // The lead's plan was made before the abort: it is not asked to plan again.
  expect(of('team:member-started').filter((event) => event.data.reason === 'start')).toHaveLength(1);
  // b's interrupted first turn counts: its next turn is its second.
  expect(
    of('team:member-started')
      .filter((event) => event.data.member === 'b')
      .map((event) => event.data.turn),
  ).toEqual([1, 2]);
  // The abort put the slow task back already; a crash leaves it to the resume (crash-resume.test.ts).
  expect(of('team:resumed')[0]?.data.requeued).toEqual([]);
  const log = await store.readEvents(first.runId);
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
});

test('resuming with another input is refused, and nothing changes', async () => {
  const store = new MemoryStore();
  const controller = new AbortController();
  const { team } = testTeam(script, {
    members: ['a', 'b'],
    store,
    tasks: [{ title: 'T', assignee: 'a' }],
    latencyMs: 3_600_000,
  });
  team.on('team:task-claimed', () => controller.abort());
  await team.run({ input: 'First request', signal: controller.signal });
  await expect(team.run({ input: 'Another request', fresh: false })).rejects.toThrow(
    /was started with another input; give the same input to resume it, or use fresh: true/,
  );
});

test('fresh: false after a finished run starts a new run on the kept list', async () => {
  const store = new FileStore({ root: tempFolder() });
  const { team, model } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0 && !call.prompt.includes('Already on the list')
          ? { toolCalls: [createTask({ title: 'One', assignee: 'a' })] }
          : call.reason === 'synthesis'
            ? 'Final'
            : 'ok',
      a: () => 'done',
    }),
    { members: ['a'], store },
  );
  const first = await team.run({ input: 'One' });
  const second = await team.run({ input: 'Again', fresh: false });
  expect(second.runId).not.toBe(first.runId);
  expect(second.teamResult.tasks).toEqual(first.teamResult.tasks);
  expect(second.teamResult.stopReason).toBe('completed');
  expect(model.calls.filter((call) => call.reason === 'start' && call.step === 0)[1]?.prompt).toContain(
    'Already on the list:\n- task-1 [completed, a] One',
  );
});

test('a resumed run’s usage, turns and agent results cover the whole run, not only the part after the resume', async () => {
  const store = new FileStore({ root: tempFolder() });
  const controller = new AbortController();
  let slow = true;
  const { team } = testTeam(script, {
    members: ['a', 'b'],
    store,
    tasks: [
      { id: 'quick', title: 'Quick', assignee: 'a' },
      { id: 'slow', title: 'Slow', assignee: 'b' },
    ],
    latencyMs: (call) => (call.taskId === 'slow' && slow ? 3_600_000 : 0),
  });
  team.on('team:task-completed', (event) => {
    if (event.data.task.id === 'quick') controller.abort();
  });
  const first = await team.run({ input: 'Do both', signal: controller.signal });
  slow = false;
  const second = await team.run({ input: 'Do both', fresh: false });
  const log = await store.readEvents(second.runId);
  const usage = log.filter((event) => event.type === 'team:turn-usage');
  const total = usage.reduce((sum, event) => sum + event.data.usage.totalTokens, 0);
  expect(second.usage.total.totalTokens).toBe(total);
  expect(second.usage.total.totalTokens).toBeGreaterThan(first.usage.total.totalTokens);
  // a worked only before the abort: its turn and its output are still in the result.
  expect(second.agentResults.a).toMatchObject({ turns: 1, output: 'done quick' });
  expect(second.agentResults.a?.usage).toEqual(first.agentResults.a?.usage);
  const started = log.filter((event) => event.type === 'team:member-started');
  expect(second.teamResult.leadTurns + second.teamResult.memberTurns).toBe(started.length);
});
