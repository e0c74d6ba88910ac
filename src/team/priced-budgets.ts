import type { LanguageModelV3 } from '@ai-sdk/provider';
import { type Budget, uncountedCost } from '../agent/budget.js';
import { TeamError } from '../errors/index.js';
import type { TeamSettings } from '../run/team-settings.js';

/**
 * A cost budget is refused at start when a model it would count has no price: the run could
 * never tell it was reached. (The `pricing` option gives a model its price.)
 */
export function checkPricedForBudgets(
  settings: TeamSettings,
  models: ReadonlyMap<string, LanguageModelV3>,
  budget: Budget | undefined,
): void {
  for (const agent of [settings.lead, ...settings.members]) {
    const counted = budget?.maxCostUsd !== undefined || agent.budget?.maxCostUsd !== undefined;
    const model = models.get(agent.name);
    if (!counted || !model) continue;
    const unpriced = uncountedCost(model.modelId, settings.pricing);
    if (unpriced === undefined) continue;
    throw new TeamError(
      'invalid-option',
      `A budget in USD needs every model it counts priced: ${agent.name} has ${unpriced}.`,
      { details: { option: 'pricing', agent: agent.name, model: model.modelId } },
    );
  }
}
