import { Agent, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { byAgent, createTask } from '../helpers/team.js';

const model = scriptedModel([]);

test('temperature, maxOutputTokens and providerOptions reach every model call of their agent, and only its', async () => {
  const shared = scriptedModel(
    byAgent({
      editor: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'Research tides', assignee: 'researcher' })] }
          : call.reason === 'synthesis'
            ? 'Tides come from the moon.'
            : 'Planned.',
      researcher: () => 'The moon pulls the sea.',
    }),
  );
  const team = new Team({
    name: 'settings',
    lead: new Agent({
      name: 'editor',
      model: shared,
      instructions: 'Plan.',
      temperature: 0.2,
      maxOutputTokens: 800,
      providerOptions: { openai: { reasoningEffort: 'low' } },
    }),
    members: [new Agent({ name: 'researcher', model: shared, instructions: 'Research.', temperature: 0 })],
  });
  const result = await team.run({ input: 'Write about tides' });
  expect(result.output).toBe('Tides come from the moon.');
  // Whether a turn generates or streams, the mock records the call options it was given.
  const options = [...shared.doGenerateCalls, ...shared.doStreamCalls];
  const seen = options.map((call) => ({
    agent: call.headers?.['x-agent-teams-agent'],
    temperature: call.temperature,
    maxOutputTokens: call.maxOutputTokens,
    providerOptions: call.providerOptions,
  }));
  expect(seen.length).toBe(shared.calls.length);
  expect(new Set(seen.map((call) => call.agent))).toEqual(new Set(['editor', 'researcher']));
  for (const call of seen) {
    expect(call).toEqual(
      call.agent === 'editor'
        ? {
            agent: 'editor',
            temperature: 0.2,
            maxOutputTokens: 800,
            providerOptions: { openai: { reasoningEffort: 'low' } },
          }
        : { agent: 'researcher', temperature: 0, maxOutputTokens: undefined, providerOptions: undefined },
    );
  }
});

test('an agent keeps its settings, and withModel keeps them too', () => {
  const agent = new Agent({
    name: 'a',
    model,
    instructions: 'Go.',
    temperature: 1.5,
    maxOutputTokens: 1,
    providerOptions: { anthropic: { sendReasoning: false } },
  });
  const other = agent.withModel(scriptedModel([]));
  for (const each of [agent, other]) {
    expect(each).toMatchObject({
      temperature: 1.5,
      maxOutputTokens: 1,
      providerOptions: { anthropic: { sendReasoning: false } },
    });
  }
  expect(new Agent({ name: 'b', model, instructions: 'Go.' })).toMatchObject({
    temperature: undefined,
    maxOutputTokens: undefined,
    providerOptions: undefined,
  });
});

test.each([
  [{ temperature: -0.1 }, 'temperature of the agent a must be a number from 0 to 2, not -0.1.'],
  [{ temperature: 2.5 }, 'temperature of the agent a must be a number from 0 to 2, not 2.5.'],
  [{ temperature: '0.7' }, 'temperature of the agent a must be a number from 0 to 2, not "0.7".'],
  [{ temperature: Number.NaN }, 'temperature of the agent a must be a number from 0 to 2, not null.'],
  [{ maxOutputTokens: 0 }, 'maxOutputTokens of the agent a must be a whole number of at least 1, not 0.'],
  [
    { maxOutputTokens: 10.5 },
    'maxOutputTokens of the agent a must be a whole number of at least 1, not 10.5.',
  ],
  [
    { providerOptions: 'openai' },
    'providerOptions of the agent a must be an object of options by provider name, like { openai: { ... } }, not "openai".',
  ],
  [
    { providerOptions: [{ openai: {} }] },
    'providerOptions of the agent a must be an object of options by provider name, like { openai: { ... } }, not [{"openai":{}}].',
  ],
  [
    { providerOptions: { openai: 'low' } },
    'providerOptions.openai of the agent a must be an object of that provider\'s options, not "low".',
  ],
])('a bad model setting %o is an invalid-option TeamError saying what is wanted', (settings, message) => {
  expect(() => new Agent({ name: 'a', model, instructions: '', ...settings } as never)).toThrow(
    expect.objectContaining({ name: 'TeamError', code: 'invalid-option', message }),
  );
});
