import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { teams } from '../../examples/research.js';
import { byAgent, createTask } from '../helpers/team.js';

test('the researchers take a long list of questions by themselves, three at a time', async () => {
  const questions = Array.from({ length: 12 }, (_, index) => `Question ${index + 1}`);
  const answer = (call: { agent?: string; taskId?: string }) => `Answer to ${call.taskId} by ${call.agent}`;
  const model = scriptedModel(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0)
          return { toolCalls: questions.map((title) => createTask({ title })) };
        return call.reason === 'synthesis'
          ? // Each answer once: the idle notices it is given quote members' last answers too.
            `Report from ${new Set(call.prompt.match(/Answer to task-\d+/g)).size} answers`
          : 'Planned.';
      },
      ana: answer,
      ben: answer,
      chloe: answer,
    }),
    { latencyMs: (call) => (call.taskId ? 15 : 0) },
  );
  const research = teams.research.withModel(model);
  let working = 0;
  let most = 0;
  research.on('team:member-started', (event) => {
    if (event.data.role === 'member') most = Math.max(most, ++working);
  });
  research.on('team:member-finished', (event) => {
    if (event.data.role === 'member') working--;
  });
  const result = await research.run({ input: 'What should a first-time visitor to Lisbon know?' });
  expect(result.output).toBe('Report from 12 answers');
  const owners = new Set(result.teamResult.tasks.map((task) => task.owner));
  expect(owners).toEqual(new Set(['ana', 'ben', 'chloe']));
  for (const task of result.teamResult.tasks) {
    expect(task.assignee).toBeNull();
    expect(task.result).toBe(`Answer to ${task.id} by ${task.owner}`);
  }
  expect(most).toBe(3);
});
