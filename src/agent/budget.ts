import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import type { TokenUsage } from './usage.js';

/** What a team or one run may spend; reaching any bound ends the run with `stopReason: 'budget'`. */
export interface Budget {
  /** Tokens of every turn, input and output. */
  maxTokens?: number;
  /** USD, where every model is priced (a cost budget with an unpriced model is refused at start). */
  maxCostUsd?: number;
  /** Wall time from the run's start (or its resume) in this process, in ms. */
  maxDurationMs?: number;
}

/** What one agent may spend; reaching it stops the agent (`stopped`, its tasks back to the list). */
export interface AgentBudget {
  maxTokens?: number;
  maxCostUsd?: number;
}

export const BUDGET_BOUNDS: readonly (keyof Budget)[] = ['maxTokens', 'maxCostUsd', 'maxDurationMs'];
export const AGENT_BUDGET_BOUNDS: readonly (keyof AgentBudget)[] = ['maxTokens', 'maxCostUsd'];

/** Which bound was reached, its limit and what was used. */
export interface BudgetReached {
  readonly bound: 'maxTokens' | 'maxCostUsd' | 'maxDurationMs';
  readonly limit: number;
  readonly used: number;
}

/** Checks a budget option: only its bounds, each a positive number. */
export function checkBudget<T extends Budget | AgentBudget>(
  what: string,
  value: unknown,
  bounds: readonly (keyof Budget)[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TeamError(
      'invalid-input',
      `The budget of ${what} must be an object: { ${bounds.join(', ')} }.`,
    );
  }
  checkKnownKeys(`the budget of ${what}`, value, bounds);
  for (const [key, bound] of Object.entries(value)) {
    if (typeof bound !== 'number' || !Number.isFinite(bound) || bound <= 0) {
      throw new TeamError('invalid-input', `budget.${key} of ${what} must be a number above 0.`);
    }
  }
  return value as T;
}

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
