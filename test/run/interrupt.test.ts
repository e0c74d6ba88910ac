import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { STORES } from '../helpers/stores.js';
import { byAgent, createTask, testTeam } from '../helpers/team.js';
import { until } from '../helpers/until.js';

describe.each(STORES)('interrupting a member, on the %s', (_, makeStore) => {
  test('interrupt cuts a turn whose model call hangs at once; the task stays with the member, whose next turn starts with the message', async () => {
    const { team, of, model } = testTeam(
      byAgent({
        lead: (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Measure the room', assignee: 'a' })] };
          return call.reason === 'synthesis' ? 'Measured.' : 'ok';
        },
        // Its first model call never answers: only the interrupt ends that turn.
        a: (call) =>
          call.prompt.includes('Use metric units.') ? '4.2 m by 3.1 m.' : new Promise<string>(() => {}),
      }),
      { members: ['a'], store: makeStore() },
    );
    const run = await team.start({ input: 'Measure it' });
    await until(() => model.calls.some((call) => call.agent === 'a'));
    if (team.store instanceof FileStore) {
      // From another shell: the command commits the interrupt and follows the run until it took.
      const done = await cli(['interrupt', 't', 'a', 'Use metric units.', '--store', team.store.root], {
        cwd: team.store.root,
      });
      expect(done.stderr).toBe('');
      expect(done.stdout).toMatch(
        /^interrupted a of t with msg-\S+\na took a new turn with your message first\n$/,
      );
    } else {
      await run.interrupt('a', 'Use metric units.');
    }
    // The call never answers: the turn ends only because the interrupt cut it.
    await until(() => of('team:member-finished').some((event) => event.data.member === 'a'));
    // The cut turn kept its task: the member's next turn is for the same task.
    const starts = of('team:member-started').filter((event) => event.data.member === 'a');
    await until(() => of('team:member-started').filter((event) => event.data.member === 'a').length === 2);
    const result = await run.result;
    expect(result.teamResult.stopReason).toBe('completed');
    expect(starts.map((event) => event.data.taskId)).toEqual(['task-1', 'task-1']);
    expect(result.teamResult.tasks[0]).toMatchObject({
      status: 'completed',
      owner: 'a',
      result: '4.2 m by 3.1 m.',
    });
    const second = model.calls.find((call) => call.agent === 'a' && call.turn === 2);
    expect(second?.prompt).toMatch(/^\[the user interrupted your last turn: their message, the first below/);
    expect(second?.prompt).toMatch(/\[message \S+ from the user[^\]]*\]\nUse metric units\./);
    expect(of('team:interrupt-requested').map((event) => event.data)).toEqual([
      { member: 'a', messageId: expect.stringMatching(/^msg-/), by: 'user' },
    ]);
  });
});

test('an interrupt of no member of the team is refused and changes nothing', async () => {
  const { team, of } = testTeam(byAgent({ lead: () => 'ok' }), { members: ['a'] });
  const run = await team.start({ input: 'go' });
  for (const who of ['zed', 'lead'])
    await expect(run.interrupt(who, 'Hi')).rejects.toMatchObject({
      code: 'not-a-member',
      message: `"${who}" is not a member of the run; its members are a.`,
    });
  await run.result;
  expect(of('team:interrupt-requested')).toEqual([]);
  expect(of('team:message-sent').filter((event) => event.data.from === 'user')).toEqual([]);
});
