import { Agent } from '../agent/agent.js';
import { modelName, resolveModel } from '../agent/resolve-model.js';
import { TeamError } from '../errors/index.js';
import type { TeamEvent } from '../events/team-event-map.js';
import type { MemberProfile, TeamRules } from '../store/team-store.js';

/** What the roster shows of an agent: its description, its model, its permission mode. */
export function profileOf(agent: Agent): MemberProfile {
  const model = typeof agent.model === 'string' ? agent.model : modelName(resolveModel(agent.model));
  // The permission mode is the agent's own when it has one (governance), else `default`.
  const mode = (agent as { readonly permissionMode?: unknown }).permissionMode;
  return { description: agent.summary, model, mode: typeof mode === 'string' ? mode : 'default' };
}

/** The profiles of a team's agents, by name, for the store's roster. */
export function profilesOf(agents: readonly Agent[]): Record<string, MemberProfile> {
  return Object.fromEntries(agents.map((agent) => [agent.name, profileOf(agent)]));
}

/** `run.addMember`'s argument, checked: an Agent. */
export function checkNewAgent(agent: unknown): Agent {
  if (!(agent instanceof Agent)) {
    throw new TeamError(
      'invalid-input',
      'addMember takes an Agent: new Agent({ name, model, instructions }).',
    );
  }
  return agent;
}

/**
 * On resume, the members that shut down or left in the run's log depart again (the team's
 * setup made them active): the log has their events already, so nothing is emitted again.
 */
export function redepart(rules: TeamRules, events: readonly TeamEvent[]): void {
  const active = new Set(
    rules.roster
      .entries()
      .filter((entry) => entry.status === 'active')
      .map((entry) => entry.name),
  );
  for (const event of events) {
    if (event.type !== 'team:member-shutdown' || !active.has(event.data.member)) continue;
    const { member, force, reason, removed } = event.data;
    rules.roster.depart(member, { force, reason, removed }, { replay: true });
    active.delete(member);
  }
}
