import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';

test('the lead’s first turn gets the request and the roster, with descriptions and expertise', async () => {
  const { team, model } = testTeam(byAgent({ lead: () => 'No team needed.' }), {
    agents: {
      a: { description: 'Finds facts and sources', metadata: { expertise: ['sources', 'dates'] } },
      b: { instructions: 'Writes clear prose for a general audience, in short paragraphs.' },
    },
  });
  await team.run({ input: 'Write a short article about tides' });
  const [first] = model.calls;
  expect(first?.agent).toBe('lead');
  expect(first?.reason).toBe('start');
  expect(first?.prompt).toContain('Write a short article about tides');
  expect(first?.prompt).toContain('- a: Finds facts and sources (expertise: sources, dates)');
  expect(first?.prompt).toContain('- b: Writes clear prose for a general audience, in short paragraphs.');
  expect(first?.tools).toEqual([
    'create_task',
    'assign_task',
    'delete_task',
    'list_tasks',
    'get_task',
    'update_task',
    'send_message',
    'read_inbox',
    'team_status',
  ]);
});

test('a lead that creates no task ends the run with no-tasks and its answer as the output', async () => {
  const { team, model, of } = testTeam(byAgent({ lead: () => 'Tides come from the moon.' }));
  const result = await team.run({ input: 'Why are there tides?' });
  expect(result.output).toBe('Tides come from the moon.');
  expect(result.teamResult.stopReason).toBe('no-tasks');
  expect(result.teamResult).toMatchObject({ leadTurns: 1, memberTurns: 0, tasks: [] });
  expect(model.calls).toHaveLength(1);
  // The log has the answer too.
  expect(of('team:complete')[0]?.data).toMatchObject({ stopReason: 'no-tasks', output: result.output });
});

test('pre-seeded tasks are on the list before the lead’s first turn', async () => {
  const { team, model } = testTeam(
    byAgent({ lead: (call) => (call.reason === 'synthesis' ? 'Final' : 'Go') }),
    {
      tasks: [
        { id: 'research', title: 'Collect three facts about tides', assignee: 'a' },
        { id: 'draft', title: 'Write the article', dependsOn: ['research'], assignee: 'b' },
        { title: 'Check every fact in the draft', dependsOn: ['draft'] },
      ],
    },
  );
  const result = await team.run({ input: 'Tides' });
  expect(model.calls[0]?.prompt).toContain(
    'Already on the list:\n- draft [pending, b] Write the article\n- research',
  );
  expect(result.teamResult.tasks.map((task) => [task.id, task.status, task.owner])).toEqual([
    ['draft', 'completed', 'b'],
    ['research', 'completed', 'a'],
    ['task-1', 'completed', expect.any(String)],
  ]);
  expect(result.output).toBe('Final');
});

test('bad pre-seeded tasks are refused before any model is called', async () => {
  const { team, model } = testTeam(() => 'x', { tasks: [{ title: 'Later', dependsOn: ['nothing'] }] });
  await expect(team.run({ input: 'go' })).rejects.toMatchObject({ code: 'dependency-not-found' });
  expect(model.calls).toHaveLength(0);
});

test('the lead plans, members work, the lead writes the final answer from every result', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0) {
          return {
            toolCalls: [
              createTask({ title: 'Research tides', assignee: 'a' }),
              createTask({ title: 'Write', dependsOn: ['task-1'] }),
            ],
          };
        }
        return call.reason === 'synthesis'
          ? `Final from: ${call.prompt.match(/\[task-\d\][^\n]*/g)?.join(' | ')}`
          : 'Planned.';
      },
      a: () => 'The moon pulls the sea.',
      b: () => 'Tides rise twice a day.',
      c: () => 'Tides rise twice a day.',
    }),
  );
  const result = await team.run({ input: 'Write about tides' });
  const synthesis = model.calls.find((call) => call.reason === 'synthesis');
  expect(synthesis?.prompt).toContain('[task-1] Research tides (by a)\nThe moon pulls the sea.');
  expect(synthesis?.prompt).toContain('Tides rise twice a day.');
  expect(synthesis?.tools).toEqual([]);
  expect(result.output).toMatch(
    /^Final from: \[task-1\] Research tides \(by a\) \| \[task-2\] Write \(by [abc]\)$/,
  );
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.leadTurns).toBe(2);
});

test('with synthesize: false the output is the tasks and their results', async () => {
  const { team, model, of } = testTeam(
    byAgent({
      lead: (call) =>
        call.step === 0 ? { toolCalls: [createTask({ title: 'Research', assignee: 'a' })] } : 'Planned.',
      a: () => 'The moon pulls the sea.',
    }),
    { synthesize: false },
  );
  const result = await team.run({ input: 'Tides' });
  expect(result.output).toBe('## task-1: Research\n\nThe moon pulls the sea.');
  expect(of('team:complete')[0]?.data.output).toBe(result.output);
  expect(model.calls.some((call) => call.reason === 'synthesis')).toBe(false);
  expect(result.teamResult.leadTurns).toBe(1);
});
