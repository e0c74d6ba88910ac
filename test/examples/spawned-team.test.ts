import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { teams } from '../../examples/spawned-team.js';
import { ARTICLE, FACTS, newsdeskScript } from './fixtures/newsdesk-script.js';

test('the newsdesk forms itself on the testing kit’s model: two members spawned, a third refused, tasks done, one retired', async () => {
  const model = scriptedModel(newsdeskScript());
  const newsdesk = teams.newsdesk.withModel(model);
  const joined: string[] = [];
  newsdesk.on('team:member-joined', (event) => joined.push(`${event.data.member}:${event.data.definition}`));
  const result = await newsdesk.run({ input: 'Write a short article about tides' });

  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.output).toBe(`${ARTICLE} (checked)`);
  expect(joined).toEqual(['scout:researcher', 'scribe:writer']);
  const refused = model.calls.find((call) => call.role === 'lead' && call.step === 1)?.toolResults[2];
  expect(refused?.output).toMatchObject({ success: false, error: expect.stringContaining('maxMembers 4') });
  expect(result.teamResult.tasks.map((task) => [task.owner, task.status, task.result])).toEqual([
    ['scout', 'completed', FACTS],
    ['scribe', 'completed', ARTICLE],
    ['checker', 'completed', 'Every fact confirmed.'],
  ]);
  const statuses = Object.fromEntries(
    result.teamResult.members.map((member) => [member.name, member.status]),
  );
  expect(statuses).toEqual({
    editor: 'idle',
    checker: 'idle',
    copyeditor: 'idle',
    scout: 'shutdown',
    scribe: 'idle',
  });
  // Delegate mode: the editor coordinates only.
  expect(model.calls[0]?.system).toContain('You only coordinate');
});
