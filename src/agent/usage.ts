import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import type { TokenUsage } from '../events/usage.js';
import { type KnownPrice, knownPrice, providerId } from './price-data.js';

export type { TokenUsage };

/** USD per million tokens, as the team's `pricing` option takes it. */
export interface ModelPrice {
  /** USD per million input tokens. */
  readonly input: number;
  /** USD per million output tokens. */
  readonly output: number;
}

/** A model without a price, and why. */
export interface NoPrice {
  readonly unpriced: string;
}

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, cost: 0 };

/**
 * Prices that override the maintained price data (`@pydantic/genai-prices`) for every team:
 * empty, since that data prices the models the hand-kept table did, and many more. It is
 * kept so that code spreading it into its `pricing` still compiles.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({});

/**
 * The price of a model: from `prices` (the team's `pricing`: an exact entry, else the
 * longest entry the id starts with, so `gpt-4o-mini-2024-07-18` is `gpt-4o-mini`), else
 * from the maintained price data, on `provider` when given (the AI SDK model's `provider`,
 * such as `openai.responses`); else why there is none.
 */
export function priceOf(
  modelId: string,
  prices: Readonly<Record<string, ModelPrice>>,
  provider?: string,
): KnownPrice | NoPrice {
  if (Object.hasOwn(prices, modelId)) return prices[modelId] as ModelPrice;
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (modelId.startsWith(`${key}-`) && (best === undefined || key.length > best.length)) best = key;
  }
  if (best !== undefined) return prices[best] as ModelPrice;
  const known = knownPrice(modelId, provider);
  if (known) return known;
  const on = providerId(provider);
  return {
    unpriced: `no price for model ${modelId}${on ? ` on provider ${on}` : ''} (give one in the team's pricing option)`,
  };
}

/**
 * One model call's usage as its provider reported it (the AI SDK's model interface), priced
 * if the model has a price. A provider that reports no details gets no detail fields.
 */
export function stepUsage(usage: LanguageModelV3Usage, price: KnownPrice | NoPrice | undefined): TokenUsage {
  const inputTokens = usage.inputTokens.total ?? 0;
  const outputTokens = usage.outputTokens.total ?? 0;
  const cachedInputTokens = usage.inputTokens.cacheRead;
  const cacheWriteTokens = usage.inputTokens.cacheWrite ?? 0;
  const reasoningTokens = usage.outputTokens.reasoning;
  // Built field by field, not spread: on Node 20 an optimised spread with properties after it
  // gives each object a hidden class of its own, and a run keeps one of these per model call.
  const counted = {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
  } as { -readonly [K in keyof TokenUsage]: TokenUsage[K] };
  if (cachedInputTokens !== undefined) counted.cachedInputTokens = cachedInputTokens;
  if (reasoningTokens !== undefined) counted.reasoningTokens = reasoningTokens;
  if (price === undefined || 'unpriced' in price) {
    counted.cost = undefined;
    counted.unpriced = [price === undefined ? 'no price given' : price.unpriced];
    return counted;
  }
  const cached = cachedInputTokens ?? 0;
  const uncached = Math.max(0, inputTokens - cached - cacheWriteTokens);
  counted.cost =
    (uncached * price.input +
      cached * (price.cachedInput ?? price.input) +
      cacheWriteTokens * (price.cacheWrite ?? price.input) +
      outputTokens * price.output) /
    1_000_000;
  return counted;
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/** Two usages added up: a cost is known only when both are, and the reasons why not are kept. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const cached = sum(a.cachedInputTokens, b.cachedInputTokens);
  const reasoning = sum(a.reasoningTokens, b.reasoningTokens);
  const unpriced = [...new Set([...(a.unpriced ?? []), ...(b.unpriced ?? [])])];
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
    cost: a.cost === undefined || b.cost === undefined ? undefined : a.cost + b.cost,
    ...(unpriced.length ? { unpriced } : {}),
  };
}
