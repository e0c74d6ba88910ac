import { z } from 'zod';
import { MAX_MS } from '../errors/check-options.js';
import { type ModelPrice, priceOf, type TokenUsage } from './usage.js';

/**
 * What a team or one run may spend; reaching any bound ends the run with `stopReason: 'budget'`.
 * @inline
 */
export interface Budget {
  /** Tokens of every turn, input and output. */
  maxTokens?: number;
  /** USD, where every model is priced (a cost budget with an unpriced model is refused at start). */
  maxCostUsd?: number;
  /** Wall time from the run's start (or its resume) in this process, in ms. */
  maxDurationMs?: number;
}

/**
 * What one agent may spend; reaching it stops the agent (`stopped`, its tasks back to the list).
 * @inline
 */
export interface AgentBudget {
  /** Tokens of its turns, input and output. */
  maxTokens?: number;
  /** USD, where its model is priced. */
  maxCostUsd?: number;
}

/** Which bound was reached, its limit and what was used. */
export interface BudgetReached {
  readonly bound: 'maxTokens' | 'maxCostUsd' | 'maxDurationMs';
  readonly limit: number;
  readonly used: number;
}

// Each bound is a number above 0 (a fraction of a cent or of a millisecond is fine); a time
// at most the longest wait a timer takes (MAX_MS).
const bound = () =>
  z.number({ error: 'a number above 0' }).positive({ error: 'a number above 0' }).optional();
const DURATION = 'a number of ms above 0 and at most 2147483647 (about 24.8 days)';
const duration = () =>
  z.number({ error: DURATION }).positive({ error: DURATION }).max(MAX_MS, { error: DURATION }).optional();

/** The schema of a run's or a team's `budget`. */
export const BUDGET_SCHEMA = z.strictObject({
  maxTokens: bound(),
  maxCostUsd: bound(),
  maxDurationMs: duration(),
} satisfies Record<keyof Budget, z.ZodType>);

/** The schema of an agent's `budget`. */
export const AGENT_BUDGET_SCHEMA = z.strictObject({
  maxTokens: bound(),
  maxCostUsd: bound(),
} satisfies Record<keyof AgentBudget, z.ZodType>);

/** The first bound of `budget` that `usage` (and `elapsedMs`) reached, if any. */
export function budgetReached(
  budget: Budget | AgentBudget | undefined,
  usage: TokenUsage,
  elapsedMs?: number,
): BudgetReached | undefined {
  if (!budget) return undefined;
  if (budget.maxTokens !== undefined && usage.totalTokens >= budget.maxTokens) {
    return { bound: 'maxTokens', limit: budget.maxTokens, used: usage.totalTokens };
  }
  if (budget.maxCostUsd !== undefined && usage.cost !== undefined && usage.cost >= budget.maxCostUsd) {
    return { bound: 'maxCostUsd', limit: budget.maxCostUsd, used: usage.cost };
  }
  const duration = 'maxDurationMs' in budget ? budget.maxDurationMs : undefined;
  if (duration !== undefined && elapsedMs !== undefined && elapsedMs >= duration) {
    return { bound: 'maxDurationMs', limit: duration, used: elapsedMs };
  }
  return undefined;
}

/**
 * Why a budget in USD could not count a model's cost (it has no price: the run could never
 * tell the budget was reached), or `undefined` when it can. The rule for the team's agents at
 * start and for a member the lead spawns alike.
 */
export function uncountedCost(
  modelId: string,
  pricing: Readonly<Record<string, ModelPrice>>,
): string | undefined {
  const price = priceOf(modelId, pricing);
  return 'unpriced' in price ? price.unpriced : undefined;
}
