import { Agent } from '../agent/agent.js';
import { resolveModel } from '../agent/resolve-model.js';
import { joinedAgent, profileOf, type SpawnOptions } from '../agent/team-formation.js';
import { TeamError } from '../errors/index.js';
import type { TeamEvent } from '../events/team-event-map.js';
import type { MemberProfile, TeamRules } from '../store/team-store.js';

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
 * Whether this process can run a member that joined from its definition: it has instructions,
 * and its model (its catalog entry's, an allowed one, or its recorded `provider/model`) resolves here.
 */
function runnable(joined: TeamEvent<'team:member-joined'>['data'], formation: SpawnOptions): boolean {
  const { member, instructions, ...profile } = joined;
  if (instructions === undefined) return false;
  try {
    resolveModel(joinedAgent(formation, { name: member, instructions, ...profile }).model);
    return true;
  } catch {
    return false;
  }
}

/**
 * On resume, the roster changes of the run's log are made again (the team's setup made the
 * roster the definition's): members that joined join, those that departed depart, without
 * logging them twice. A member that joined and is not in this team's definition runs from
 * the definition its join recorded; one that cannot run here (no instructions recorded, or a
 * model that does not resolve here) is removed, its tasks back to the list, and that is logged.
 */
export function replayRoster(
  rules: TeamRules,
  events: readonly TeamEvent[],
  defined: readonly string[],
  formation: SpawnOptions,
): void {
  const entries = () => new Map(rules.roster.entries().map((entry) => [entry.name, entry.status]));
  const joins = new Map<string, TeamEvent<'team:member-joined'>['data']>();
  for (const event of events) {
    if (event.type === 'team:member-joined') joins.set(event.data.member, event.data);
    if (event.type === 'team:member-joined' && !entries().has(event.data.member)) {
      const { member, description, model, mode } = event.data;
      rules.roster.join(member, { description, model, mode }, { replay: { joinedAt: event.timestamp } });
    } else if (event.type === 'team:member-shutdown' && entries().get(event.data.member) === 'active') {
      const { member, force, reason, removed } = event.data;
      rules.roster.depart(member, { force, reason, removed }, { replay: true });
    }
  }
  for (const [name, status] of entries()) {
    if (status !== 'active' || name === rules.board.roster.lead || defined.includes(name)) continue;
    const joined = joins.get(name);
    if (joined && runnable(joined, formation)) continue;
    const reason =
      'it joined during the run, is not in the team definition that resumed it, and its own cannot run here';
    rules.roster.depart(name, { force: true, reason, removed: true });
  }
}
