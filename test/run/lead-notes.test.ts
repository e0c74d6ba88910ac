import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

test('the lead reads a task’s note in its stalled and final briefings: why the work was left undone', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0)
          return { toolCalls: [createTask({ title: 'Ship the login', assignee: 'a' })] };
        return call.reason === 'synthesis' ? 'The login is not shipped: it needs a security review.' : 'ok';
      },
      a: (call) =>
        call.step === 0
          ? {
              toolCalls: [
                tool('update_task', {
                  taskId: 'task-1',
                  status: 'pending',
                  note: 'Blocked: needs a security review',
                }),
              ],
            }
          : 'Handed back.',
    }),
    // a has one turn: the task it handed back stays pending, and the lead is asked what now.
    { members: ['a'], maxTurnsPerMember: 1 },
  );
  const result = await team.run({ input: 'Ship the login' });
  const prompts = (reason: string) =>
    model.calls.filter((call) => call.agent === 'lead' && call.reason === reason && call.step === 0);
  const [stalled] = prompts('stalled');
  expect(stalled?.prompt).toContain(
    '- task-1 [pending] Ship the login (note: Blocked: needs a security review)',
  );
  const [synthesis] = prompts('synthesis');
  expect(synthesis?.prompt).toContain(
    '[task-1] Ship the login (pending)\n(no result)\nNote: Blocked: needs a security review',
  );
  expect(result.output).toBe('The login is not shipped: it needs a security review.');
});
