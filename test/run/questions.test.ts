import { FileStore, foldEvents, MemoryStore } from 'agent-teams';
import { manualClock } from 'agent-teams/testing';
import { describe, expect, test } from 'vitest';
import { renderLive } from '../../src/cli/view/live-view.js';
import { cli } from '../helpers/cli.js';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { until } from '../helpers/until.js';

const ask = tool('send_message', { to: 'lead', content: 'Is the table ready?', kind: 'question' });

describe.each(STORES)('a member’s question keeps its task, on the %s', (_, makeStore) => {
  test('a member asks the lead, ends its turn with an interim reply, gets the answer and finishes the task itself', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { team, of } = testTeam(
      byAgent({
        lead: async (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Build the API', assignee: 'a' })] };
          if (call.reason === 'message' && call.step === 0) {
            await answered; // the test looks at the waiting member first
            return { toolCalls: [tool('send_message', { to: 'a', content: 'Yes: the table is ready.' })] };
          }
          return call.reason === 'synthesis' ? 'The API is built.' : 'ok';
        },
        a: (call) => {
          // Its next turn carries the answer, and its task: it finishes the work.
          if (call.prompt.includes('the table is ready')) return 'The API, on the ready table.';
          if (call.step === 0) return { toolCalls: [ask] };
          return 'Scaffolding the API while I wait.';
        },
      }),
      { members: ['a'], store: makeStore() },
    );
    const run = await team.start({ input: 'Build it' });
    await until(() => of('team:member-finished').some((event) => event.data.member === 'a'));
    // Between its turns, a waits on its question, its task still its own and in progress.
    const first = of('team:member-finished')[0];
    const waiting = foldEvents(await team.store.readEvents(first?.runId ?? ''));
    expect(waiting.agents.get('a')).toMatchObject({
      status: 'waiting',
      waitingOn: { kind: 'question', to: ['lead'] },
      taskId: null,
    });
    expect([...waiting.tasks.values()]).toMatchObject([{ status: 'in_progress', owner: 'a' }]);
    // The board says so: waiting, on whom, with the task it keeps.
    const board = renderLive(waiting, Date.now(), 120).join('\n');
    expect(board).toMatch(/ a +member +\S*waiting\S* on an answer from lead · task-1 Build the API/);
    if (team.store instanceof FileStore) {
      // And `agent-teams teams`, from another process, reads it from the store.
      const teams = await cli(['teams', '--store', team.store.root], { cwd: team.store.root });
      expect(teams.stdout).toContain('  waiting: a on an answer from lead');
    }
    answer();
    const result = await run.result;
    expect(result.teamResult.stopReason).toBe('completed');
    const [task] = await team.store.transact('t', ({ board }) => board.listTasks());
    // The task is done with what a wrote after the answer, never the interim reply.
    expect(task).toMatchObject({ status: 'completed', owner: 'a', result: 'The API, on the ready table.' });
    const turns = of('team:member-started').map((event) => `${event.data.member} ${event.data.reason}`);
    expect(turns).toEqual(['lead start', 'a task', 'lead message', 'a task', 'lead synthesis']);
    const finished = of('team:member-finished').filter((event) => event.data.member === 'a');
    expect(finished.map((event) => event.data.status)).toEqual(['waiting', 'idle']);
    const folded = foldEvents(await team.store.readEvents(result.runId));
    expect(folded.agents.get('a')).toMatchObject({ status: 'idle', waitingOn: null, question: null });
  });
});

test('a question nobody answers expires after questionTimeoutMs (on the team’s clock): the member is told and finishes', async () => {
  const clock = manualClock();
  let release = () => {};
  const busy = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { team, of, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0)
          return {
            toolCalls: [
              createTask({ title: 'Build the API', assignee: 'a' }),
              createTask({ title: 'Build the table', assignee: 'b' }),
            ],
          };
        return call.reason === 'synthesis' ? 'Built.' : 'ok';
      },
      a: (call) => {
        if (call.prompt.includes('Nobody answered')) return 'The API, assuming the table has an id column.';
        if (call.step === 0)
          return {
            toolCalls: [tool('send_message', { to: 'b', content: 'Does it have an id?', kind: 'question' })],
          };
        return 'Waiting for b.';
      },
      b: async (call) => {
        if (call.reason === 'task') await busy; // b is deep in its own task: it cannot answer
        return 'The table.';
      },
    }),
    { members: ['a', 'b'], questionTimeoutMs: 60_000, clock, store: new MemoryStore({ now: clock.date }) },
  );
  const run = await team.start({ input: 'Build it' });
  await until(() => of('team:member-finished').some((event) => event.data.member === 'a'));
  clock.advance(59_999);
  // Let the loop act on anything due: nothing is, so a still waits.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(of('team:question-expired')).toEqual([]);
  expect(of('team:member-started').filter((event) => event.data.member === 'a')).toHaveLength(1);
  clock.advance(1);
  await until(() => of('team:question-expired').length === 1);
  expect(of('team:question-expired')[0]?.data).toMatchObject({ member: 'a', to: ['b'] });
  await until(() => of('team:task-completed').some((event) => event.data.task.owner === 'a'));
  release();
  const result = await run.result;
  expect(result.teamResult.stopReason).toBe('completed');
  const told = model.calls.find((call) => call.agent === 'a' && call.prompt.includes('Nobody answered'));
  expect(told?.prompt).toContain('Nobody answered your question to b in time ("Does it have an id?")');
  const tasks = await team.store.transact('t', ({ board }) => board.listTasks());
  expect(tasks.find((task) => task.owner === 'a')).toMatchObject({
    status: 'completed',
    result: 'The API, assuming the table has an id column.',
  });
});
