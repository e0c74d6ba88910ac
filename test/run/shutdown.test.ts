import { isTeamError, type TeamEvent, type TeamRunHandle } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

/** Waits for the first event of the run that `when` holds for. */
async function eventOf(run: TeamRunHandle, when: (event: TeamEvent) => boolean): Promise<TeamEvent> {
  for await (const event of run.events()) if (when(event)) return event;
  throw new Error('the run ended without that event');
}

const statusOf = (
  run: { teamResult: { members: readonly { name: string; status: string }[] } },
  name: string,
) => run.teamResult.members.find((member) => member.name === name)?.status;

describe.each(STORES)('shutdown on the %s', (_, makeStore) => {
  test('a graceful shutdown asks; the member answers in its next turn, and not rejecting approves', async () => {
    let shutDown!: () => void;
    const gone = new Promise<void>((resolve) => {
      shutDown = resolve;
    });
    const { team, model, of } = testTeam(
      async (call) => {
        if (call.agent === 'b') return 'Bye.';
        if (call.agent === 'lead') {
          const start = call.reason === 'start' && call.step === 0;
          return start ? { toolCalls: [createTask({ title: 'Write', assignee: 'a' })] } : 'Final';
        }
        if (call.step > 0) return 'Written.';
        await gone; // a works once b is gone
        return { toolCalls: [tool('send_message', { to: 'b', content: 'Can you check this?' })] };
      },
      { members: ['a', 'b'], store: makeStore() },
    );
    const run = await team.start({ input: 'go' });
    await run.shutdown('b', { reason: 'Not needed today' });
    await eventOf(run, (event) => event.type === 'team:member-shutdown');
    shutDown();
    const result = await run.result;
    const asked = model.calls.find((call) => call.agent === 'b');
    expect(asked?.prompt).toContain('Not needed today');
    expect(asked?.tools).toContain('respond_to_shutdown');
    expect(of('team:member-shutdown').map((event) => event.data)).toEqual([
      { member: 'b', force: false, reason: 'Not needed today', removed: false, requeued: [], archived: [] },
    ]);
    expect(statusOf(result, 'b')).toBe('shutdown');
    // A message to it is refused, with the reason, never dropped.
    const refused = model.calls.find((call) => call.agent === 'a' && call.step === 1)?.toolResults[0];
    expect(refused?.output).toMatchObject({
      success: false,
      error: expect.stringContaining('b has shut down'),
    });
    await expect(
      team.store.transact('t', ({ mailbox }) => mailbox.send('user', 'b', 'Still there?')),
    ).rejects.toMatchObject({ code: 'member-shutdown' });
    // The run is over: its handle takes no more.
    await expect(run.send('a', 'Still there?')).rejects.toMatchObject({ code: 'run-ended' });
    // The lead was told, with its last reply.
    const notice = of('team:message-sent').find((event) => event.data.idleReason === 'shutdown');
    expect(notice?.data).toMatchObject({ from: 'b', to: ['lead'], kind: 'idle_notification' });
    expect(notice?.data.content).toContain('Bye.');
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', owner: 'a' });
  });

  test('a member asked while it works finishes its turn first, then answers, taking nothing new', async () => {
    let release!: () => void;
    const asked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { team, model, of } = testTeam(
      async (call) => {
        if (call.agent === 'lead') {
          const start = call.reason === 'start' && call.step === 0;
          const tasks = [createTask({ title: 'One', assignee: 'a' }), createTask({ title: 'Two' })];
          return start ? { toolCalls: tasks } : 'Final';
        }
        if (call.agent === 'a' && call.taskId === 'task-1') await asked; // still working when asked
        return `Done by ${call.agent}.`;
      },
      { members: ['a', 'b'], store: makeStore(), latencyMs: (call) => (call.agent === 'b' ? 50 : 0) },
    );
    const run = await team.start({ input: 'go' });
    await eventOf(run, (event) => event.type === 'team:task-claimed' && event.data.member === 'a');
    await run.shutdown('a');
    release();
    const result = await run.result;
    const turns = model.calls
      .filter((call) => call.agent === 'a')
      .map((call) => `${call.reason}:${call.taskId ?? ''}`);
    expect(turns).toEqual(['task:task-1', 'message:']);
    expect(result.teamResult.tasks.map((task) => `${task.title}:${task.owner}`)).toEqual(['One:a', 'Two:b']);
    expect(of('team:member-shutdown').map((event) => event.data.member)).toEqual(['a']);
  });

  test('a member may reject a graceful shutdown with a reason: it goes on, and the lead is told', async () => {
    let answered!: () => void;
    const rejected = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const { team, of } = testTeam(
      async (call) => {
        if (call.agent === 'lead') {
          if (call.reason === 'start') await rejected; // the run stays open until b has answered
          return 'ok';
        }
        if (call.agent !== 'b') return 'ok';
        return call.step === 0
          ? { toolCalls: [tool('respond_to_shutdown', { approve: false, reason: 'I am mid-review' })] }
          : 'Staying.';
      },
      { members: ['a', 'b'], store: makeStore() },
    );
    const run = await team.start({ input: 'go' });
    await run.shutdown('b');
    await eventOf(run, (event) => event.type === 'team:member-finished' && event.data.member === 'b');
    answered();
    const result = await run.result;
    expect(of('team:shutdown-rejected').map((event) => event.data)).toEqual([
      { member: 'b', reason: 'I am mid-review' },
    ]);
    expect(of('team:member-shutdown')).toEqual([]);
    expect(statusOf(result, 'b')).toBe('idle');
    const response = of('team:message-sent').find((event) => event.data.kind === 'shutdown_response');
    expect(response?.data).toMatchObject({
      from: 'b',
      to: ['lead'],
      content: 'b rejects its shutdown: I am mid-review',
    });
  });

  test('force stops the member at once: its turn is aborted, its task goes back, the run goes on', async () => {
    const { team, of } = testTeam(
      byAgent({
        lead: (call) =>
          call.reason === 'start' && call.step === 0
            ? { toolCalls: [createTask({ title: 'Build', assignee: 'a' })] }
            : 'Final',
        a: () => 'Built by a.',
        b: () => 'Built by b.',
      }),
      {
        members: ['a', 'b'],
        store: makeStore(),
        // a never answers on its own: only the forced shutdown ends its turn.
        latencyMs: (call) => (call.agent === 'a' ? 600_000 : 0),
      },
    );
    const run = await team.start({ input: 'go' });
    await eventOf(run, (event) => event.type === 'team:task-claimed');
    await run.shutdown('a', { force: true, reason: 'Too slow' });
    const result = await run.result;
    expect(of('team:member-shutdown')[0]?.data).toMatchObject({
      member: 'a',
      force: true,
      reason: 'Too slow',
      requeued: ['task-1'],
    });
    expect(of('team:member-finished').find((event) => event.data.member === 'a')?.data.output).toBe('');
    expect(statusOf(result, 'a')).toBe('shutdown');
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks[0]).toMatchObject({
      status: 'completed',
      owner: 'b',
      result: 'Built by b.',
    });
  });

  test('bad calls are refused: the lead, someone not on the team, an unknown option, twice', async () => {
    // The lead's first turn lasts until the abort: the run is open for every call.
    const { team } = testTeam(() => 'ok', { members: ['a'], store: makeStore(), latencyMs: 600_000 });
    const run = await team.start({ input: 'go' });
    await expect(run.shutdown('lead')).rejects.toMatchObject({ code: 'not-a-member' });
    await expect(run.shutdown('zed')).rejects.toMatchObject({ code: 'not-a-member' });
    await expect(run.shutdown('a', { now: true } as never)).rejects.toMatchObject({ code: 'invalid-option' });
    await expect(run.shutdown('a', null as never)).rejects.toMatchObject({ code: 'invalid-option' });
    await expect(run.shutdown('a', { force: 'yes' } as never)).rejects.toMatchObject({
      code: 'invalid-option',
    });
    await expect(run.addMember({ name: 'x' } as never)).rejects.toMatchObject({ code: 'invalid-input' });
    await run.shutdown('a', { force: true });
    const twice = await run.shutdown('a', { force: true }).catch((error: unknown) => error);
    expect(isTeamError(twice, 'member-shutdown')).toBe(true);
    run.abort('done');
    await run.result;
  });
});
