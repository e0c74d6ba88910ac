import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { byAgent, testTeam, tool } from '../helpers/team.js';
import { AGENTS, BAD_INPUT, expectRefusal } from './bad-input.js';

test('a model that sends 200 generated bad calls to each lead tool gets success: false for each, and nothing changes', async () => {
  // What a model can send is JSON: keep the inputs that survive it unchanged.
  const json = (value: unknown) => {
    try {
      const text = JSON.stringify(value);
      return text !== undefined && isDeepStrictEqual(JSON.parse(text), value);
    } catch {
      return false; // a BigInt
    }
  };
  const lead = [
    'create_task',
    'assign_task',
    'delete_task',
    'list_tasks',
    'get_task',
    'update_task',
    'send_message',
    'read_inbox',
  ];
  const calls = lead.flatMap((toolName) =>
    fc
      .sample((BAD_INPUT[toolName] as (typeof BAD_INPUT)[string]).shape.filter(json), {
        numRuns: 200,
        seed: 8,
      })
      .map((input) => tool(toolName, input as Record<string, unknown>)),
  );
  const { team, model, of } = testTeam(
    byAgent({
      lead: (call) => (call.reason === 'start' && call.step === 0 ? { toolCalls: calls } : 'Planned.'),
    }),
    { members: ['a', 'b'] },
  );
  const result = await team.run({ input: 'go' });

  const answers = model.calls.find((call) => call.agent === 'lead' && call.step === 1)?.toolResults ?? [];
  expect(answers).toHaveLength(1_600);
  for (const { output } of answers) expectRefusal(output as Record<string, unknown>);
  expect(result.teamResult.stopReason).toBe('no-tasks');
  expect(of('team:task-created')).toEqual([]);
  expect(of('team:message-sent')).toEqual([]);
  const inboxes = await team.store.transact('t', ({ mailbox }) =>
    AGENTS.map((agent) => mailbox.messages(agent)),
  );
  expect(inboxes).toEqual([[], [], []]);
});
