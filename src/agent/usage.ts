import type { LanguageModelUsage } from 'ai';

/** Tokens of one turn, an agent or a run; `cost` in USD where the model is priced. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** `undefined` when any part of it came from a model without a price. */
  readonly cost: number | undefined;
}

/** USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
}

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, cost: 0 };

/**
 * List prices of common models (USD per million tokens, as published by their makers in
 * 2025), matched by model id or its start (`gpt-4o-mini-2024-07-18` is `gpt-4o-mini`).
 * The `pricing` option of a team overrides or extends it.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
};

/** The price of a model id: an exact entry, else the longest entry the id starts with. */
export function priceOf(
  modelId: string,
  prices: Readonly<Record<string, ModelPrice>>,
): ModelPrice | undefined {
  if (Object.hasOwn(prices, modelId)) return prices[modelId];
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (modelId.startsWith(`${key}-`) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : prices[best];
}

/** One turn's usage from the AI SDK's, priced if the model has a price. */
export function turnUsage(usage: LanguageModelUsage, price: ModelPrice | undefined): TokenUsage {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  const cost = price ? (inputTokens * price.input + outputTokens * price.output) / 1_000_000 : undefined;
  return { inputTokens, outputTokens, totalTokens: usage.totalTokens ?? inputTokens + outputTokens, cost };
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: a.cost === undefined || b.cost === undefined ? undefined : a.cost + b.cost,
  };
}
