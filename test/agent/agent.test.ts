import { Agent } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';

const model = scriptedModel([]);

test('an agent keeps its config and describes itself by description or the start of its instructions', () => {
  const described = new Agent({
    name: 'researcher',
    model,
    instructions: 'Research.',
    description: 'Finds facts',
  });
  expect(described).toMatchObject({ name: 'researcher', maxIterations: 10, summary: 'Finds facts' });
  const long = new Agent({ name: 'writer', model, instructions: `Write ${'very '.repeat(60)}well.` });
  expect(long.summary).toHaveLength(160);
  expect(long.summary.endsWith('...')).toBe(true);
});

test.each([
  [{ name: '../x', model, instructions: '' }, 'invalid-name'],
  [{ name: 'a', model: '', instructions: '' }, 'invalid-option'],
  [{ name: 'a', model, instructions: 3 }, 'invalid-option'],
  [{ name: 'a', model, instructions: '', maxIterations: 0 }, 'invalid-option'],
  [{ name: 'a', model, instructions: '', description: 3 }, 'invalid-option'],
  [{ name: 'a', model, instructions: '', tools: [] }, 'invalid-option'],
  [{ name: 'a', model, instructions: '', metadata: 'x' }, 'invalid-option'],
])('a bad agent config %# is refused with %s', (config, code) => {
  expect(() => new Agent(config as never)).toThrow(expect.objectContaining({ code }));
});

test.each(['resources', 'agentTools', 'instruction'])(
  'an unknown agent option (%s) is an error naming it and listing the known ones',
  (option) => {
    expect(() => new Agent({ name: 'a', model, instructions: '', [option]: 1 } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: `Unknown option "${option}" for the agent a; the known ones are name, model, instructions, description, maxIterations, tools, metadata, turnTimeoutMs, maxRetries, budget, temperature, maxOutputTokens, providerOptions, requirePlanApproval, permissionMode, classifier.`,
      }),
    );
  },
);

test.each([
  [
    { instructions: 'Go.' },
    'model of the agent a is missing: it must be an AI SDK language model or a "provider/model" string.',
  ],
  [
    { model, instructions: 'Go.', maxRetries: -1 },
    'maxRetries of the agent a must be a whole number of at least 0, not -1.',
  ],
  [
    { model, instructions: 'Go.', budget: { maxTokens: 0 } },
    'budget.maxTokens of the agent a must be a number above 0, not 0.',
  ],
  [
    { model, instructions: 'Go.', budget: { maxDurationMs: 1 } },
    'Unknown option "maxDurationMs" for budget of the agent a; the known ones are maxTokens, maxCostUsd.',
  ],
  [
    { model, instructions: 'Go.', metadata: { expertise: 'sources' } },
    'metadata.expertise of the agent a must be a list, not "sources".',
  ],
])('a bad agent option is named by its path, with what it must be: %j', (config, message) => {
  expect(() => new Agent({ name: 'a', ...config } as never)).toThrow(
    expect.objectContaining({ code: 'invalid-option', message }),
  );
});

test('withModel changes only the model', () => {
  const agent = new Agent({ name: 'a', model: 'openai/gpt-5.5', instructions: 'Go.', maxIterations: 3 });
  const other = agent.withModel(model);
  expect(other).toMatchObject({ name: 'a', model, instructions: 'Go.', maxIterations: 3 });
  expect(agent.model).toBe('openai/gpt-5.5');
});
