import { type HookContext, isTeamError, type TeamHooks, type TeamTask } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { addTaskAsUser } from '../../src/run/task-control.js';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const plan = (tasks: Record<string, unknown>[]) => (call: { reason?: string; step: number }) =>
  call.reason === 'start' && call.step === 0 ? { toolCalls: tasks.map(createTask) } : 'Final';

describe.each(STORES)('hooks on the %s', (_, makeStore) => {
  test('a creation onTaskCreated rejects is never committed: the lead reads the feedback as the tool error', async () => {
    const seen: HookContext[] = [];
    const hooks: TeamHooks = {
      onTaskCreated: async (task, context) => {
        seen.push(context);
        return task.title.includes('vague') ? 'Say what to deliver.' : undefined;
      },
    };
    const { team, model, of } = testTeam(
      byAgent({ lead: plan([{ title: 'A vague task' }, { title: 'Write the intro' }]), a: () => 'Intro.' }),
      { members: ['a'], hooks, store: makeStore() },
    );
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.tasks.map((task) => task.title)).toEqual(['Write the intro']);
    expect(of('team:task-created').map((event) => event.data.task.title)).toEqual(['Write the intro']);
    const answers = model.calls.find((call) => call.agent === 'lead' && call.step === 1)?.toolResults;
    expect(answers?.[0]?.output).toMatchObject({
      success: false,
      error: 'The task "A vague task" was not created: Say what to deliver.',
    });
    expect(of('team:hook-rejected').map((event) => event.data)).toEqual([
      { hook: 'onTaskCreated', agent: 'lead', taskId: null, feedback: 'Say what to deliver.' },
    ]);
    // The rejected task took no id (its event names none): the allowed one is task-1.
    expect(result.teamResult.tasks[0]?.id).toBe('task-1');
    expect(seen[0]).toEqual({ team: 't', runId: result.runId, agent: 'lead' });
  });

  test('the person’s tasks are judged by onTaskCreated as the lead’s are: rejected, never created (hook-rejected); a hook that throws adds nothing; without the hook at hand, refused (hook-missing)', async () => {
    const store = makeStore();
    let release!: () => void;
    const planned = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: HookContext[] = [];
    const hooks: TeamHooks = {
      onTaskCreated: (task, context) => {
        seen.push(context);
        if (task.title === 'Explode') throw new Error('the checker is down');
        return task.title.includes('vague') ? 'Say what to deliver.' : undefined;
      },
    };
    const { team, of } = testTeam(
      byAgent({
        // The lead's first turn waits while the person adds tasks: the run goes on meanwhile.
        lead: async (call) => {
          if (call.reason === 'start' && call.step === 0) await planned;
          return call.reason === 'synthesis' ? 'Final' : 'Planned.';
        },
        a: () => 'Intro.',
      }),
      { members: ['a'], hooks, store },
    );
    const run = await team.start({ input: 'go' });
    await expect(run.addTask({ title: 'A vague task' })).rejects.toMatchObject({
      code: 'hook-rejected',
      message: 'The task "A vague task" was not created: Say what to deliver.',
    });
    await expect(run.addTask({ title: 'Explode' })).rejects.toMatchObject({
      code: 'hook-failed',
      message: 'The hook onTaskCreated threw: the checker is down',
    });
    // From where the hook is not at hand (another process with no team file): refused too.
    await expect(addTaskAsUser(store, 't', { title: 'A vague task' })).rejects.toMatchObject({
      code: 'hook-missing',
    });
    // The rejected tasks took no id.
    expect(await run.addTask({ title: 'Write the intro' })).toMatchObject({
      id: 'task-1',
      createdBy: 'user',
    });
    release();
    const result = await run.result;
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks.map((task) => `${task.id} ${task.title} ${task.status}`)).toEqual([
      'task-1 Write the intro completed',
    ]);
    expect(of('team:hook-rejected').map((event) => event.data)).toEqual([
      { hook: 'onTaskCreated', agent: 'user', taskId: null, feedback: 'Say what to deliver.' },
    ]);
    expect(seen).toEqual(
      ['A vague task', 'Explode', 'Write the intro'].map(() => ({
        team: 't',
        runId: run.runId,
        agent: 'user',
      })),
    );
  });

  test('a completion rejected in update_task keeps the task in progress with its owner, who reads why', async () => {
    let tries = 0;
    const { team, model } = testTeam(
      byAgent({
        lead: plan([{ title: 'Code', assignee: 'a' }]),
        a: (call) => {
          if (call.step > 1) return 'Done.';
          const result = call.step === 0 ? 'code' : 'code and tests';
          return { toolCalls: [tool('update_task', { taskId: 'task-1', status: 'completed', result })] };
        },
      }),
      {
        members: ['a'],
        store: makeStore(),
        hooks: {
          onTaskCompleted: (task) => {
            tries++;
            return task.result?.includes('tests') ? undefined : 'No tests: add them.';
          },
        },
      },
    );
    const result = await team.run({ input: 'go' });
    const first = model.calls.find((call) => call.agent === 'a' && call.step === 1)?.toolResults[0];
    expect(first?.output).toMatchObject({
      success: false,
      error: 'The task task-1 was not completed (it stays in progress with a): No tests: add them.',
    });
    expect(result.teamResult.tasks[0]).toMatchObject({
      status: 'completed',
      result: 'code and tests',
      owner: 'a',
    });
    expect(tries).toBe(2);
  });

  test('a completion the harness would make is judged too: rejected, the owner gets another (counted) turn with the feedback', async () => {
    let turns = 0;
    const { team, model, of } = testTeam(
      byAgent({
        lead: plan([{ title: 'Code', assignee: 'a' }]),
        a: () => (++turns === 1 ? 'code' : 'code with tests'),
      }),
      {
        members: ['a'],
        store: makeStore(),
        hooks: {
          onTaskCompleted: (task) => (task.result?.includes('tests') ? undefined : 'Where are the tests?'),
        },
      },
    );
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'code with tests' });
    const second = model.calls.filter((call) => call.agent === 'a')[1];
    expect(second?.reason).toBe('task');
    expect(second?.prompt).toContain('Where are the tests?');
    // Between the two turns the task stayed in progress with a: never given back.
    expect(of('team:task-updated').filter((event) => event.data.to === 'pending')).toEqual([]);
    expect(result.teamResult.members.find((member) => member.name === 'a')?.turns).toBe(2);
  });

  test('a completion rejected on the member’s last turn gives the task back, and the lead hears it is out of turns', async () => {
    const { team, of } = testTeam(
      byAgent({ lead: plan([{ title: 'Code', assignee: 'a' }]), a: () => 'code' }),
      {
        members: ['a'],
        store: makeStore(),
        maxTurnsPerMember: 1,
        hooks: { onTaskCompleted: () => 'Not good enough.' },
      },
    );
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'pending', owner: null });
    const sent = of('team:message-sent').map(
      (event) => `${event.data.from}>${event.data.to}:${event.data.kind}`,
    );
    // No feedback for a member with no turn left to act on it: the lead is told instead.
    expect(sent).toEqual(['a>lead:idle_notification']);
    expect(of('team:message-sent')[0]?.data.idleReason).toBe('out_of_turns');
    expect(of('team:hook-rejected')).toHaveLength(1);
  });

  test('a rejected idle gives the member another turn with the feedback', async () => {
    let asked = 0;
    const { team, model } = testTeam(
      byAgent({ lead: plan([{ title: 'Code', assignee: 'a' }]), a: () => 'ok' }),
      {
        members: ['a'],
        store: makeStore(),
        hooks: {
          onTeammateIdle: (member) => (++asked === 1 ? `Check your work, ${member.name}.` : undefined),
        },
      },
    );
    await team.run({ input: 'go' });
    const calls = model.calls.filter((call) => call.agent === 'a');
    expect(calls.map((call) => call.reason)).toEqual(['task', 'message']);
    expect(calls[1]?.prompt).toContain('Check your work, a.');
    expect(asked).toBe(2);
  });

  test('a hook that throws fails the run with hook-failed, naming the hook', async () => {
    const { team } = testTeam(byAgent({ lead: plan([{ title: 'Code', assignee: 'a' }]), a: () => 'ok' }), {
      members: ['a'],
      store: makeStore(),
      partialResults: true,
      hooks: {
        onTaskCompleted: () => {
          throw new Error('the CI is down');
        },
      },
    });
    const failure = await team.run({ input: 'go' }).catch((error: unknown) => error);
    expect(isTeamError(failure, 'hook-failed')).toBe(true);
    expect((failure as Error).message).toBe('The hook onTaskCompleted threw: the CI is down');
  });

  test('a hook runs outside the lock, and the change it allowed is checked again when committed', async () => {
    const { team, model } = testTeam(
      byAgent({
        lead: plan([{ title: 'Code', assignee: 'a' }]),
        a: (call) =>
          call.step === 0
            ? { toolCalls: [tool('update_task', { taskId: 'task-1', status: 'completed', result: 'x' })] }
            : 'Stopped.',
      }),
      {
        members: ['a'],
        store: makeStore(),
        hooks: {
          // While the hook runs, the store is free: the task is closed meanwhile.
          onTaskCompleted: async (task: TeamTask, context) => {
            if (task.result !== 'x') return undefined;
            await team.store.transact(context.team, ({ board }) =>
              board.updateTask(task.id, { status: 'completed', result: 'closed by someone else' }, 'a'),
            );
            return undefined;
          },
        },
      },
    );
    const result = await team.run({ input: 'go' });
    const answer = model.calls.find((call) => call.agent === 'a' && call.step === 1)?.toolResults[0];
    expect(answer?.output).toMatchObject({ success: false });
    expect(result.teamResult.tasks[0]?.result).toBe('closed by someone else');
  });
});

test('the hooks option is checked: unknown names and non-functions are refused', () => {
  const bad = (hooks: unknown) => () => testTeam(() => 'ok', { hooks: hooks as TeamHooks });
  expect(bad({ onTaskDone: () => undefined })).toThrow(
    /onTaskDone.*onTaskCreated, onTaskCompleted, onTeammateIdle/,
  );
  expect(bad({ onTaskCreated: 'yes' })).toThrow(/hooks\.onTaskCreated of the team t must be a function/);
  expect(bad('nope')).toThrow(/hooks of the team t must be an object/);
  expect(bad('nope')).toThrow(expect.objectContaining({ code: 'invalid-option' }));
});
