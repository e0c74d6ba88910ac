import type { Agent } from '../agent/agent.js';
import type { FormationSettings } from '../agent/team-formation.js';
import { TeamError } from '../errors/index.js';
import { leadSystem, memberSystem } from './briefings.js';
import { countTokens, fitsTokens, tokenBound } from './tokens.js';

/** What an agent's system prompt is built from. */
export interface TeamShape {
  readonly name: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  /** What the lead may spawn (its prompt lists it) and whether it only coordinates. */
  readonly formation?: FormationSettings | undefined;
}

export const DEFAULT_PROMPT_BUDGET = 24_000;
/** The smallest budget allowed: the team's own words and one task line need some room. */
export const MIN_PROMPT_BUDGET = 2_000;

/** An agent's system prompt: its instructions and what the team tells it. */
export function systemPrompt(team: TeamShape, agent: Agent): string {
  const picture = { team: team.name, lead: team.lead, members: team.members, formation: team.formation };
  return agent === team.lead ? leadSystem(picture) : memberSystem(picture, agent);
}

/** The tokens a turn's briefing has: the budget less the agent's system prompt. */
export function briefingRoom(budget: number, system: string): number {
  return budget - tokenBound(system, budget);
}

/**
 * Refuses a team whose system prompts leave a briefing less than half of the budget: an
 * agent's instructions take the room its task list and results need.
 */
export function checkSystemPrompts(team: TeamShape, budget: number): void {
  // A catalog entry is checked as the member it would be.
  const catalog = Object.values(team.formation?.catalog ?? {});
  for (const agent of [team.lead, ...team.members, ...catalog]) checkSystemPrompt(team, agent, budget);
}

/** Refuses an agent whose system prompt leaves its briefings less than half of the budget (a member it would be, if not on the team yet). */
export function checkSystemPrompt(team: TeamShape, agent: Agent, budget: number): void {
  const system = systemPrompt(team, agent);
  if (fitsTokens(system, budget / 2)) return;
  const tokens = countTokens(system);
  if (tokens > budget / 2) {
    throw new TeamError(
      'invalid-input',
      `The system prompt of ${agent.name} (its instructions and the team's) takes ${tokens} o200k tokens, ` +
        `more than half of promptBudgetTokens (${budget}): shorten its instructions or raise promptBudgetTokens.`,
    );
  }
}

/** Refuses a run input that leaves the lead's briefings less than half of the budget. */
export function checkRunInput(team: TeamShape, budget: number, input: string): void {
  const both = `${input}\n${systemPrompt(team, team.lead)}`;
  if (fitsTokens(both, budget / 2)) return;
  const tokens = countTokens(input) + countTokens(systemPrompt(team, team.lead));
  if (tokens > budget / 2) {
    throw new TeamError(
      'invalid-input',
      `The input and the lead's system prompt take ${tokens} o200k tokens, more than half of ` +
        `promptBudgetTokens (${budget}): shorten the input or raise promptBudgetTokens.`,
    );
  }
}
