import type { TeamRoster } from '../agent/participants.js';

/** What the roster shows of an agent besides its name. */
export interface MemberProfile {
  /** What the agent does, as the lead reads it. */
  readonly description: string;
  /** The model it runs on, as `provider/model`. */
  readonly model: string;
  /** Its permission mode (`default` unless the agent sets one). */
  readonly mode: string;
}

/** One agent on the roster, as the team's config lists it. */
export interface RosterEntry extends MemberProfile {
  /** The agent's name. */
  readonly name: string;
  /** Whether it leads or is a member. */
  readonly role: 'lead' | 'member';
  /** `active`; `shutdown` (it stopped for good); `removed` (it left the team). */
  readonly status: 'active' | 'shutdown' | 'removed';
  /** When it joined (ISO 8601): the team's making, or a join during a run. */
  readonly joinedAt: string;
}

/**
 * The one record of who is on a team: every agent, the lead first, with its profile and
 * status. Everything else a store or a rule needs of the roster (the members, the active
 * ones, the departed) is read from it by the functions below, never kept beside it.
 * @inline
 */
export type Roster = readonly RosterEntry[];

const NO_PROFILE: MemberProfile = { description: '', model: '', mode: 'default' };

/** Every member's name (not the lead's), the departed included, in roster order. */
export function memberNames(roster: Roster): string[] {
  return roster.filter((entry) => entry.role === 'member').map((entry) => entry.name);
}

/** The members that may hold tasks and get messages: those still active. */
export function activeMemberNames(roster: Roster): string[] {
  return roster
    .filter((entry) => entry.role === 'member' && entry.status === 'active')
    .map((entry) => entry.name);
}

/** Members that shut down or were removed: they hold no task and get no message. */
export function departedNames(roster: Roster): string[] {
  return roster
    .filter((entry) => entry.role === 'member' && entry.status !== 'active')
    .map((entry) => entry.name);
}

/** The lead's name. */
export function leadOf(roster: Roster): string {
  const lead = roster.find((entry) => entry.role === 'lead');
  if (!lead) throw new Error('A roster without a lead');
  return lead.name;
}

/** The task list's view of the roster: the lead and the active members. */
export function activeRoster(roster: Roster): TeamRoster {
  return { lead: leadOf(roster), members: activeMemberNames(roster) };
}

/**
 * A roster from names alone, for a team recorded before rosters had profiles (a config that
 * lists `members` and `departed`): every agent with an empty profile, joined when the team was made.
 */
export function rosterFromNames(
  lead: string,
  members: readonly string[],
  departed: readonly string[],
  joinedAt: string,
): Roster {
  const gone = new Set(departed);
  const entry = (name: string, role: 'lead' | 'member'): RosterEntry => ({
    name,
    role,
    ...NO_PROFILE,
    status: gone.has(name) ? 'shutdown' : 'active',
    joinedAt,
  });
  return [entry(lead, 'lead'), ...members.map((name) => entry(name, 'member'))];
}
