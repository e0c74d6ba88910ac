import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { Agent, DEFAULT_PRICES, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import type { KnownPrice } from '../../src/agent/price-data.js';
import { addUsage, NO_USAGE, priceOf, stepUsage } from '../../src/agent/usage.js';

/** A model call's usage, as a provider reports it to the AI SDK. */
function usage(
  input: number,
  output: number,
  details: { cacheRead?: number; cacheWrite?: number; reasoning?: number } = {},
): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: input,
      noCache: undefined,
      cacheRead: details.cacheRead,
      cacheWrite: details.cacheWrite,
    },
    outputTokens: { total: output, text: undefined, reasoning: details.reasoning },
  };
}

const priced = (price: ReturnType<typeof priceOf>): KnownPrice => {
  if ('unpriced' in price) throw new Error(price.unpriced);
  return price;
};

test('the models the README names are priced by the maintained data, with a cached input rate', () => {
  for (const [model, provider] of [
    ['gpt-5.5', 'openai.responses'],
    ['gpt-5.5', undefined],
    ['claude-sonnet-4-5', 'anthropic.messages'],
    ['claude-opus-4-5', undefined],
    ['claude-opus-4-5-20251101', 'anthropic.messages'],
    ['gpt-4o-mini-2024-07-18', 'openai.chat'],
  ] as const) {
    const price = priced(priceOf(model, DEFAULT_PRICES, provider));
    expect(price.input).toBeGreaterThan(0);
    expect(price.output).toBeGreaterThan(price.input);
    expect(price.cachedInput).toBeLessThan(price.input);
  }
  expect(priceOf('gpt-4o', {})).toEqual({ input: 2.5, output: 10, cachedInput: 1.25 });
});

test('the pricing option overrides the data, by exact id or the longest id it starts with', () => {
  const pricing = { 'gpt-4o': { input: 1, output: 1 }, 'gpt-4o-mini': { input: 7, output: 8 } };
  expect(priceOf('gpt-4o-mini-2024-07-18', pricing)).toEqual({ input: 7, output: 8 });
  expect(priceOf('gpt-4o', pricing)).toEqual({ input: 1, output: 1 });
  expect(priceOf('llama3.2', { 'llama3.2': { input: 0, output: 0 } }, 'ollama.chat')).toEqual({
    input: 0,
    output: 0,
  });
});

test('cached input tokens cost the cached rate, and cached and reasoning tokens are counted apart', () => {
  const price = { input: 2, output: 10, cachedInput: 0.5, cacheWrite: 2.5 };
  const turn = stepUsage(usage(1000, 300, { cacheRead: 600, cacheWrite: 100, reasoning: 200 }), price);
  expect(turn).toMatchObject({ inputTokens: 1000, outputTokens: 300, totalTokens: 1300 });
  expect(turn).toMatchObject({ cachedInputTokens: 600, reasoningTokens: 200 });
  expect(turn.cost).toBeCloseTo((300 * 2 + 600 * 0.5 + 100 * 2.5 + 300 * 10) / 1_000_000, 12);
  // Without a cached rate, cached tokens cost what any input token does.
  expect(stepUsage(usage(1000, 0, { cacheRead: 600 }), { input: 2, output: 10 }).cost).toBeCloseTo(0.002, 12);
  // A provider that reports no details: no detail fields, everything at the plain rates.
  const plain = stepUsage(usage(1000, 300), price);
  expect(plain).not.toHaveProperty('cachedInputTokens');
  expect(plain).not.toHaveProperty('reasoningTokens');
  const sum = addUsage(addUsage(NO_USAGE, turn), turn);
  expect(sum).toMatchObject({ inputTokens: 2000, cachedInputTokens: 1200, reasoningTokens: 400 });
  expect(sum.cost).toBeCloseTo((turn.cost ?? 0) * 2, 12);
});

test('an unpriced model says why, and the reason is kept as usages add up', () => {
  const none = priceOf('llama3.2', DEFAULT_PRICES, 'ollama.chat');
  expect(none).toEqual({
    unpriced: expect.stringContaining('no price for model llama3.2 on provider ollama'),
  });
  const local = stepUsage(usage(100, 10), none);
  expect(local).toMatchObject({ cost: undefined, unpriced: [expect.stringContaining('llama3.2')] });
  const hosted = stepUsage(usage(100, 10), priceOf('gpt-4o', {}));
  const other = stepUsage(usage(5, 5), priceOf('house-model', {}));
  const total = [hosted, local, local, other].reduce(addUsage, NO_USAGE);
  expect(total.cost).toBeUndefined();
  expect(total.unpriced).toEqual([local.unpriced?.[0], other.unpriced?.[0]]);
  expect(addUsage(hosted, hosted)).not.toHaveProperty('unpriced');
});

test('a run’s result names the unpriced agents and why; a priced model costs at the data’s rates', async () => {
  const agents = (modelId: string) => {
    const model = scriptedModel(() => 'Answered.', { modelId });
    return {
      lead: new Agent({ name: 'lead', model, instructions: 'Answer.' }),
      members: [new Agent({ name: 'a', model, instructions: '' })],
    };
  };
  const local = await new Team({ name: 'local', ...agents('my-local-model') }).run({ input: 'go' });
  expect(local.usage.total.cost).toBeUndefined();
  expect(local.usage.byAgent.lead?.unpriced).toEqual([
    expect.stringContaining('no price for model my-local-model'),
  ]);
  const hosted = await new Team({ name: 'hosted', ...agents('claude-opus-4-5') }).run({ input: 'go' });
  const { inputTokens, outputTokens, cost, unpriced } = hosted.usage.total;
  expect(unpriced).toBeUndefined();
  expect(cost).toBeCloseTo((inputTokens * 5 + outputTokens * 25) / 1_000_000, 12);
});
