import { Agent, Team } from 'agent-teams';
import { type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { tool } from 'ai';
import { expect, test } from 'vitest';
import { createTask } from '../helpers/team.js';

// An agent's own tool is described to the model at every model call; its input schema is
// turned into JSON Schema once, not at every call. The schema here is a Standard Schema of
// its own, which counts how often it is asked for its JSON Schema.

test('an agent’s own tool schema is turned into JSON Schema once, across its turns and their steps', async () => {
  let described = 0;
  const shape = {
    type: 'object',
    properties: { depth: { type: 'number' } },
    required: ['depth'],
    additionalProperties: false,
  } as const;
  const depthSchema = {
    '~standard': {
      version: 1,
      vendor: 'counted',
      validate: (value: unknown) => ({ value: value as { depth: number } }),
      jsonSchema: {
        input: () => {
          described++;
          return shape;
        },
        output: () => shape,
      },
    },
  };
  const sound = tool({
    description: 'Sounds the depth',
    inputSchema: depthSchema as never,
    execute: async () => ({ depth: 4 }),
  });
  const model = scriptedModel((call: ScriptedCall) => {
    if (call.agent === 'lead')
      return call.reason === 'start' && call.step === 0
        ? {
            toolCalls: [1, 2, 3].map((n) => createTask({ title: `Sound ${n}`, assignee: 'a' })),
          }
        : 'Sounded.';
    // Each task turn: two calls of the tool, then its answer: three model calls.
    return call.step < 2 ? { toolCalls: [{ toolName: 'sound', input: { depth: 1 } }] } : '4 m.';
  });
  const team = new Team({
    name: 'once',
    lead: new Agent({ name: 'lead', model, instructions: 'Plan.' }),
    members: [new Agent({ name: 'a', model, instructions: 'Sound.', tools: { sound } })],
  });
  const result = await team.run({ input: 'Sound the harbour' });
  expect(result.teamResult.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
  const calls = model.calls.filter((call) => call.agent === 'a');
  expect(calls.length).toBe(9);
  expect(calls.every((call) => call.tools.includes('sound'))).toBe(true);
  expect(described).toBe(1);
});
