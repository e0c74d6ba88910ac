import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { teams } from '../../examples/newsroom.js';
import { newsroomScript } from '../../src/cli/newsroom-script.js';

test('the DESIGN newsroom runs on the testing kit’s model: plan, parallel work, a question, the final article', async () => {
  const newsroom = teams.newsroom.withModel(scriptedModel(newsroomScript()));
  const claimed: string[] = [];
  newsroom.on('team:task-claimed', (event) => claimed.push(`${event.data.member}:${event.data.task.id}`));
  const asked: string[] = [];
  newsroom.on('team:message-sent', (event) => {
    // The idle notices to the editor aside: the question and its answer.
    if (event.data.kind !== 'idle_notification') asked.push(`${event.data.from}->${event.data.to.join(',')}`);
  });
  const result = await newsroom.run({ input: 'Write a short article about tides' });

  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.tasks.map((task) => [task.id, task.status])).toEqual([
    ['task-1', 'completed'],
    ['task-2', 'completed'],
    ['task-3', 'completed'],
    ['task-4', 'completed'],
  ]);
  expect(claimed).toEqual(expect.arrayContaining(['researcher:task-1', 'writer:task-3', 'checker:task-4']));
  expect(asked).toEqual(['writer->researcher', 'researcher->writer']);
  expect(result.output).toContain('Why the sea breathes.');
  expect(result.output).toContain('Bay of Fundy');
  expect(result.teamResult.members.map((member) => member.name)).toEqual([
    'editor',
    'researcher',
    'writer',
    'checker',
  ]);
});
