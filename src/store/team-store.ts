import type { TeamTaskBoard } from '../board/team-task-board.js';
import type { TeamEvent, TeamEventDraft } from '../events/team-event-map.js';
import type { TeamMailbox } from '../mailbox/team-mailbox.js';
import type { TeamRequests } from '../requests/team-requests.js';
import type { MemberProfile, Roster, RosterEntry } from '../roster/roster.js';
import type { TeamRosterRules } from '../roster/team-roster-rules.js';
import type { OutageWatch } from './outage-watch.js';
import type { RunListing } from './run-record.js';

export type { MemberProfile, RosterEntry };

/** What a store needs to know of a team: its roster and the options of its task list. */
export interface TeamSetup {
  /** The lead's name. */
  lead: string;
  /** The members' names, in order. */
  members: readonly string[];
  /** What the roster shows of each agent, by name. Default: nothing but names. */
  profiles?: Readonly<Record<string, MemberProfile>>;
  /** Default `true`. */
  selfClaim?: boolean;
  /** Default 50. */
  maxTasks?: number;
  /** Members on the team at once (active ones; the lead not counted): a join past it is refused. Default: no bound. */
  maxMembers?: number;
  /**
   * Whether the team's `onTaskCreated` hook judges every new task: a task the person adds
   * where the hook is not at hand (`agent-teams task add` without `--file`, a Studio without
   * the team's file) is refused with `hook-missing`. Default `false`.
   */
  judgesTasks?: boolean;
}

/** A team as its store knows it. */
export interface TeamInfo {
  /** The team's name. */
  readonly name: string;
  /** Stable for the life of the team in this store; runs are keyed by it. */
  readonly teamId: string;
  /** The lead's name. */
  readonly lead: string;
  /** Every agent, the lead first, with its profile and status: the team's one record of who is on it. */
  readonly roster: Roster;
  /** Whether members may claim pending tasks given to no one. */
  readonly selfClaim: boolean;
  /** How many tasks its list holds at most. */
  readonly maxTasks: number;
  /** Members at once (the lead not counted); `null`: no bound. */
  readonly maxMembers: number | null;
  /** Whether the team's `onTaskCreated` hook judges every new task (see `TeamSetup.judgesTasks`). */
  readonly judgesTasks: boolean;
  /** The run events are logged under, if one was started. */
  readonly runId: string | null;
  /** When the store first knew it (ISO 8601). */
  readonly createdAt: string;
  /** When its setup, its roster or its current run last changed (ISO 8601). */
  readonly updatedAt: string;
}

/** A run `resumeRun` continues: its team, and its events so far. */
export interface ResumedRun {
  /** The team, its run live again. */
  readonly info: TeamInfo;
  /** The run's events so far, in commit order. */
  readonly events: TeamEvent[];
}

/** The rules of one team, lent for the length of a transaction. */
export interface TeamRules {
  /** The task list's rules. */
  readonly board: TeamTaskBoard;
  /** The mailboxes' rules. */
  readonly mailbox: TeamMailbox;
  /** Who is on the team: members joining and departing during a run. */
  readonly roster: TeamRosterRules;
  /** The run's requests (plans, permissions, tool calls) and path grants. */
  readonly requests: TeamRequests;
  /** Records an event of the caller's own (a turn, the run's end) in the same commit. */
  emit(event: TeamEventDraft): void;
}

/** Gets the events of one commit, in order. */
export type TeamEventListener = (events: readonly TeamEvent[]) => void;

/** What `transact` takes besides its callback. */
export interface TransactOptions {
  /**
   * Told, after the commit and before `transact` settles, the events it committed (none when
   * `fn` changed nothing), in order: a reader folding the run's log need not read its own
   * commit back. Not told when `fn` throws.
   */
  readonly committed?: (events: readonly TeamEvent[]) => void;
}

/** What `readEvents` takes. */
export interface ReadEventsOptions {
  /** Only events with a greater `seq` (a whole number; default 0: every event). */
  afterSeq?: number;
}

/**
 * Where a team's task list, mailboxes and event log live.
 *
 * Contract:
 * - `transact(team, fn)` runs `fn` with the team's rules, atomically with respect to every
 *   other transaction on the team, in this process and in any other process or machine that
 *   shares the store. `fn` must be synchronous: it runs inside the store's lock or database
 *   transaction. If `fn` throws, nothing it did is kept and the error is rethrown.
 *   A store may first run `fn` as a read of the team as last committed, without its lock,
 *   and stop it at its first change (before anything changes) to run it again under the
 *   lock: a transaction that only reads then takes no lock and writes nothing (the
 *   FileStore does). So `fn` should only read and change the rules' state.
 * - A commit persists only what `fn` changed. Its events are appended to the team's run log
 *   in the same commit, then passed to this process's subscribers, in commit order; events
 *   are never emitted for a change that was not committed.
 * - Stores add durability and atomicity, never rules: every store runs the same
 *   `TeamTaskBoard` and `TeamMailbox`, so every store refuses alike.
 *
 * - A store shared by processes (the FileStore) also passes other processes' commits to
 *   this process's subscribers, read from the run's log: every event once, in seq order.
 *   Delivery may lag; a reader that must miss nothing catches up with `readEvents` after
 *   the last seq it handled and treats a notification as a wake-up.
 *
 * Deliberately left out: any scheduling; that belongs to the runtime.
 */
export interface TeamStore {
  /**
   * Makes the team known, or updates the roster and options of a known team (its tasks,
   * inboxes and id stay). A setup that changes nothing writes nothing. A change is refused
   * (`team-busy`), before anything is written, while the team's current run is live.
   */
  createTeam(name: string, setup: TeamSetup): Promise<TeamInfo>;
  /** The team of that name; `undefined` when the store does not know it. */
  getTeam(name: string): Promise<TeamInfo | undefined>;
  /** Every team the store knows. */
  listTeams(): Promise<TeamInfo[]>;
  /** Runs `fn` with the team's rules in one atomic commit (see the contract above). */
  transact<T>(name: string, fn: (rules: TeamRules) => T, options?: TransactOptions): Promise<T>;
  /**
   * Starts a run: later events are logged under the new run id, and this process runs it (it
   * is live) until its `team:complete` is committed or `leaveRun`. With `fresh` (the default)
   * the task list and inboxes are emptied first. A team has one live run per store: while its
   * current run is live — run by this process, or by another live process of a store shared
   * by processes — the store refuses (`team-busy`, naming the process and run) before
   * writing anything.
   */
  startRun(name: string, options?: { fresh?: boolean }): Promise<TeamInfo>;
  /**
   * Continues the team's last run if it did not finish (it crashed, was aborted or failed)
   * and belongs to this team (the same team id, so a run of an earlier team of the same
   * name is never attached): later events go on in its log. Answers the team and the run's
   * events so far, or `undefined` when there is no such run. The run is then live in this
   * process, as after `startRun`; `team-busy` as for `startRun`.
   */
  resumeRun(name: string): Promise<ResumedRun | undefined>;
  /**
   * This process no longer runs the run: it ended, or its loop stopped; another process may
   * resume it (a store shared by processes clears the run's runner at once). Idempotent.
   */
  leaveRun(name: string, runId: string): Promise<void>;
  /**
   * The store's runs (or `team`'s, or the one `runId`), newest first, each with whether a
   * live process runs it now: the process that started or last resumed it, its lease renewed
   * (see run-lease.ts). A run that did not end and has no live runner was interrupted.
   */
  listRuns(options?: { team?: string; runId?: string }): Promise<RunListing[]>;
  /**
   * The events logged for a run, in commit order; with `afterSeq`, only those whose `seq` is
   * greater (catching up after the last event folded). An unknown run has none.
   */
  readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]>;
  /**
   * Listens to the team's committed events from now on (this process's, and other
   * processes' where the store spans processes). Returns the unsubscribe.
   */
  subscribe(name: string, listener: TeamEventListener): () => void;
  /** Releases what the store holds (locks, watches, connections); every call after it is refused (`store-closed`). Safe to call twice. */
  close(): Promise<void>;
  /**
   * Only a store that can lose its connection has it (the PostgresStore): runs `fn` with
   * `watch` deciding how long each call `fn` makes on the store (its turns' and timers' too)
   * waits for the store while it cannot be reached, and whom that is told (see OutageWatch).
   * @internal
   */
  withOutageWatch?<T>(watch: OutageWatch, fn: () => T): T;

  /**
   * Only on the store a worker lends one attempt at a turn (its commits fenced to the
   * attempt): called before each effect outside the store (a workspace file written), it
   * confirms the attempt still holds its turn and renews its lease on it, or refuses with
   * `stale-turn` (and stops the attempt). So a worker stopped past its lease and continued
   * after another redid its turn changes no file. Other stores leave it out: nothing to check.
   */
  holdTurn?(): Promise<void>;
}
