import { TeamError } from '../errors/index.js';
import { checkName } from '../errors/names.js';

/** Who is on a team: one lead and its members, by name. */
export interface TeamRoster {
  /** The lead's name. */
  readonly lead: string;
  /** The members' names. */
  readonly members: readonly string[];
}

/** Recipients a message can name besides a member. */
export const LEAD_ALIAS = 'lead';
export const EVERYONE = 'everyone';
/**
 * The sender of a message from the person running the team (the CLI's `send`, the Studio),
 * not from an agent. Reserved: no agent may take the name, so no agent can write as the person.
 */
export const USER = 'user';

/**
 * Checks a roster before it is used: every name safe for a path, no agent twice, no member
 * named like a recipient alias (`lead`, `everyone`), so an address is never ambiguous, and no
 * agent named `user`, the person's name as a sender.
 */
export function checkRoster(input: { lead: unknown; members: unknown }): TeamRoster {
  const lead = checkName('agent', input.lead);
  if (!Array.isArray(input.members) || input.members.length === 0) {
    throw new TeamError('invalid-input', 'A team needs at least one member besides its lead.');
  }
  const members = input.members.map((member) => checkName('agent', member));
  const seen = new Set<string>([lead]);
  for (const member of members) {
    if (seen.has(member)) {
      throw new TeamError(
        'invalid-input',
        `The agent ${member} is on the team twice: give every agent its own name.`,
        {
          details: { agent: member },
        },
      );
    }
    seen.add(member);
  }
  for (const name of [lead, ...members]) {
    if (name === EVERYONE || (name === LEAD_ALIAS && name !== lead)) {
      throw new TeamError(
        'invalid-name',
        `No member can be named "${name}": it is how messages address the team.`,
        {
          details: { kind: 'agent', name },
        },
      );
    }
    if (name === USER) {
      throw new TeamError(
        'invalid-name',
        `No agent can be named "${USER}": it is the name of the person running the team.`,
        { details: { kind: 'agent', name } },
      );
    }
  }
  return { lead, members };
}

/** Throws `unknown-agent` unless `name` is the lead or a member. */
export function checkActor(roster: TeamRoster, name: string): void {
  if (name !== roster.lead && !roster.members.includes(name)) {
    throw new TeamError(
      'unknown-agent',
      `${JSON.stringify(name)} is not on the team; its agents are ${[roster.lead, ...roster.members].join(', ')}.`,
      { details: { agent: name } },
    );
  }
}

/** Throws `not-a-member` unless `name` is a member (not the lead). */
export function checkMember(roster: TeamRoster, name: string, doing: string): void {
  if (roster.members.includes(name)) return;
  if (name === roster.lead) {
    throw new TeamError('not-a-member', `The lead ${name} cannot ${doing}: only members can.`, {
      details: { agent: name },
    });
  }
  throw new TeamError(
    'not-a-member',
    `${JSON.stringify(name)} is not a member of the team; the members are ${roster.members.join(', ')}.`,
    { details: { agent: name } },
  );
}
