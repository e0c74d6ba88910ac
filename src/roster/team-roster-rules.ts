import { checkRoster } from '../agent/participants.js';
import type { TeamTaskBoard } from '../board/team-task-board.js';
import { checkName } from '../errors/names.js';
import { TeamError } from '../errors/team-error.js';
import type { TeamEventSink } from '../events/team-event-map.js';
import {
  activeMemberNames,
  leadOf,
  type MemberProfile,
  memberNames,
  type Roster,
  type RosterEntry,
} from './roster.js';

/** Where the roster rules read and write the roster: the store's state, lent for one transaction. */
export interface RosterSlot {
  readonly team: string;
  /** Members on the team at once (the lead not counted); `null`: no bound. */
  readonly maxMembers: number | null;
  read(): Roster;
  /** Replaces the roster (and the task list's view of it); recorded so a failed transaction undoes it. */
  write(roster: Roster): void;
  /** The ids of the unread messages in an agent's inbox. */
  unread(agent: string): readonly string[];
}

/**
 * Who is on the team, changed during a run: a member joins, or departs (shut down or
 * removed). Synchronous, inside the store's transaction like the board and the mailbox;
 * the change is the roster (the team's `config.json` in a FileStore) and the task list's
 * view of it. The board and mailbox of the same transaction keep the roster they began with,
 * so a transaction that departs a member gives its tasks back first (this does).
 */
export class TeamRosterRules {
  readonly #slot: RosterSlot;
  readonly #board: TeamTaskBoard;
  readonly #events: TeamEventSink;
  readonly #now: () => Date;

  constructor(slot: RosterSlot, board: TeamTaskBoard, events: TeamEventSink, now: () => Date) {
    this.#slot = slot;
    this.#board = board;
    this.#events = events;
    this.#now = now;
  }

  /** Every agent on the roster, the departed included. */
  entries(): Roster {
    return this.#slot.read();
  }

  /**
   * A new member joins. Checks: a valid name no agent of the team has or had in this run, and
   * room under the team's `maxMembers` (`member-limit`; a replay is not checked: it was let in).
   * Changes: the roster (status `active`). Events: `team:member-joined` with its profile,
   * `instructions`, and the catalog `definition` and spawner `by` when given (not with `replay`).
   */
  join(
    name: string,
    profile: MemberProfile,
    options: {
      replay?: { joinedAt: string };
      instructions?: string;
      definition?: string;
      by?: string;
    } = {},
  ): RosterEntry {
    checkName('agent', name);
    const roster = this.entries();
    if (roster.some((entry) => entry.name === name)) {
      throw new TeamError(
        'invalid-input',
        `The team ${this.#slot.team} has (or had) an agent ${name} already.`,
        {
          details: { agent: name },
        },
      );
    }
    // The same checks as a team's roster (no `everyone`, no `user`).
    checkRoster({ lead: leadOf(roster), members: [...memberNames(roster), name] });
    const max = this.#slot.maxMembers;
    const active = activeMemberNames(roster).length;
    if (!options.replay && max !== null && active >= max) {
      throw new TeamError(
        'member-limit',
        `The team ${this.#slot.team} has ${active} members, its most at once (maxMembers ${max}): ` +
          `retire one before ${name} can join.`,
        { details: { agent: name, maxMembers: max } },
      );
    }
    const entry: RosterEntry = {
      name,
      role: 'member',
      ...profile,
      status: 'active',
      joinedAt: options.replay?.joinedAt ?? this.#now().toISOString(),
    };
    this.#slot.write([...roster, entry]);
    // Replayed on resume: the log has the event already.
    if (!options.replay) {
      const { instructions, definition, by } = options;
      const recorded = {
        ...(instructions === undefined ? {} : { instructions }),
        ...(definition === undefined ? {} : { definition }),
        ...(by === undefined ? {} : { by }),
      };
      this.#events.emit({ type: 'team:member-joined', data: { member: name, ...profile, ...recorded } });
    }
    return entry;
  }

  /**
   * A member departs: shut down, or removed from the team. Checks: an active member.
   * Changes: its tasks go back to the list (in progress: pending; assigned: unassigned); its
   * unread messages stay in its inbox, unread (the archive); no message reaches it any more.
   * Events: the tasks' `team:task-updated`, then `team:member-shutdown` (not with `replay`).
   */
  depart(
    name: string,
    how: { force: boolean; reason: string | null; removed: boolean },
    options: { replay?: boolean } = {},
  ): void {
    const roster = this.entries();
    const entry = roster.find((candidate) => candidate.name === name);
    if (entry?.role !== 'member') {
      throw new TeamError(
        'not-a-member',
        `${JSON.stringify(name)} is not a member of the team ${this.#slot.team}.`,
        {
          details: { agent: name },
        },
      );
    }
    if (!activeMemberNames(roster).includes(name)) {
      throw new TeamError('member-shutdown', `${name} has shut down or left the team already.`, {
        details: { agent: name },
      });
    }
    const requeued = this.#board.releaseMember(name, leadOf(roster)).map((task) => task.id);
    const archived = [...this.#slot.unread(name)];
    const status = how.removed ? 'removed' : 'shutdown';
    this.#slot.write(roster.map((each) => (each.name === name ? { ...each, status } : each)));
    // Replayed on resume: the log has the event already.
    if (options.replay) return;
    this.#events.emit({ type: 'team:member-shutdown', data: { member: name, ...how, requeued, archived } });
  }
}
