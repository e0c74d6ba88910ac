import type { Agent } from '../agent/agent.js';
import { type BudgetReached, budgetReached } from '../agent/budget.js';
import type { MemberStatus } from '../events/team-event-map.js';
import type { AgentRunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import type { TeamSettings } from './team-settings.js';

/**
 * An agent's status once its turn ends (`definition`: the member's, its own budget read from it): `failed` when the turn threw; `stopped` when a member
 * is out of turns or reached its own budget (its tasks then go back to the list); else `idle`.
 */
export function statusAfter(
  agent: AgentRunState,
  turn: TurnDescriptor,
  outcome: TurnOutcome,
  settings: TeamSettings,
  definition: Agent | undefined,
): { status: MemberStatus; overBudget: BudgetReached | undefined } {
  if (outcome.kind === 'failed') return { status: 'failed', overBudget: undefined };
  if (turn.role !== 'member') return { status: 'idle', overBudget: undefined };
  // Every step of the turn committed its usage as it came: the fold holds it all by now.
  const budget = definition?.budget;
  const overBudget = budgetReached(budget, agent.usage);
  const outOfTurns = agent.countedTurns >= settings.maxTurnsPerMember;
  return { status: outOfTurns || overBudget ? 'stopped' : 'idle', overBudget };
}
