import type { TaskListState } from '../board/task-list-state.js';
import { TASK_LIST_SECTION, type TeamTaskBoard } from '../board/team-task-board.js';
import { TeamError } from '../errors/index.js';
import type { TeamEventSink } from '../events/team-event-map.js';
import type { ChangeRecorder } from '../state/change-recorder.js';
import { checkName } from '../state/names.js';
import { checkRoster } from '../state/roster.js';
import { type TeamState, taskList } from './team-state.js';
import type { MemberProfile, RosterEntry, TeamInfo } from './team-store.js';

/** A roster change's undo: the info and task list as they were. */
export interface RosterBefore {
  readonly info: TeamInfo;
  readonly list: TaskListState;
}

const NO_PROFILE: MemberProfile = { description: '', model: '', mode: 'default' };

/** The roster entries of a team's info; an info written before rosters gets them from its names. */
export function rosterOf(info: TeamInfo): readonly RosterEntry[] {
  if (info.roster) return info.roster;
  const departed = new Set(info.departed ?? []);
  const entry = (name: string, role: 'lead' | 'member'): RosterEntry => ({
    name,
    role,
    ...NO_PROFILE,
    status: departed.has(name) ? 'shutdown' : 'active',
    joinedAt: info.createdAt,
  });
  return [entry(info.lead, 'lead'), ...info.members.map((name) => entry(name, 'member'))];
}

/** The members that may hold tasks: the roster less the departed. */
export function activeMembers(info: TeamInfo): string[] {
  const departed = new Set(info.departed ?? []);
  return info.members.filter((member) => !departed.has(member));
}

/**
 * Who is on the team, changed during a run: a member joins, or departs (shut down or
 * removed). Synchronous, inside the store's transaction like the board and the mailbox;
 * the change is the team's info (its `config.json` in a FileStore) and the task list's
 * roster. The board and mailbox of the same transaction keep the roster they began with,
 * so a transaction that departs a member gives its tasks back first (this does).
 */
export class TeamRosterRules {
  readonly #state: TeamState;
  readonly #board: TeamTaskBoard;
  readonly #events: TeamEventSink;
  readonly #recorder: ChangeRecorder;
  readonly #now: () => Date;

  constructor(
    parts: { state: TeamState; board: TeamTaskBoard; events: TeamEventSink },
    recorder: ChangeRecorder,
    now: () => Date,
  ) {
    this.#state = parts.state;
    this.#board = parts.board;
    this.#events = parts.events;
    this.#recorder = recorder;
    this.#now = now;
  }

  /** Every agent on the roster, the departed included. */
  entries(): readonly RosterEntry[] {
    return rosterOf(this.#state.info);
  }

  /**
   * A new member joins. Checks: a valid name no agent of the team has or had in this run.
   * Changes: the roster (status `active`). Events: `team:member-joined` (not with `replay`).
   */
  join(name: string, profile: MemberProfile, options: { replay?: { joinedAt: string } } = {}): RosterEntry {
    checkName('agent', name);
    const info = this.#state.info;
    if (this.entries().some((entry) => entry.name === name)) {
      throw new TeamError('invalid-input', `The team ${info.name} has (or had) an agent ${name} already.`, {
        details: { agent: name },
      });
    }
    // The same checks as a team's roster (no `everyone`, no `user`).
    checkRoster({ lead: info.lead, members: [...info.members, name] });
    const entry: RosterEntry = {
      name,
      role: 'member',
      ...profile,
      status: 'active',
      joinedAt: options.replay?.joinedAt ?? this.#now().toISOString(),
    };
    this.#change({ ...info, members: [...info.members, name], roster: [...this.entries(), entry] });
    // Replayed on resume: the log has the event already.
    if (!options.replay)
      this.#events.emit({ type: 'team:member-joined', data: { member: name, ...profile } });
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
    const info = this.#state.info;
    if (name === info.lead || !info.members.includes(name)) {
      throw new TeamError(
        'not-a-member',
        `${JSON.stringify(name)} is not a member of the team ${info.name}.`,
        {
          details: { agent: name },
        },
      );
    }
    if ((info.departed ?? []).includes(name)) {
      throw new TeamError('member-shutdown', `${name} has shut down or left the team already.`, {
        details: { agent: name },
      });
    }
    const requeued = this.#board.releaseMember(name, info.lead).map((task) => task.id);
    // Read from the inbox itself: a member that joined in this transaction is not on the mailbox's roster yet.
    const archived = this.#state.bus
      .inbox(name)
      .filter((message) => message.readAt === null)
      .map((message) => message.id);
    const status = how.removed ? 'removed' : 'shutdown';
    this.#change({
      ...info,
      departed: [...(info.departed ?? []), name],
      roster: this.entries().map((entry) => (entry.name === name ? { ...entry, status } : entry)),
    });
    // Replayed on resume: the log has the event already.
    if (options.replay) return;
    this.#events.emit({
      type: 'team:member-shutdown',
      data: { member: name, ...how, requeued, archived },
    });
  }

  #change(info: TeamInfo): void {
    const list = taskList(this.#state);
    this.#recorder.before('roster', { info: this.#state.info, list } satisfies RosterBefore);
    this.#state.info = { ...info, updatedAt: this.#now().toISOString() };
    const roster = { lead: info.lead, members: activeMembers(info) };
    this.#state.blackboard.write(TASK_LIST_SECTION, { ...list, roster });
  }
}
