import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { TeamError } from '../../errors/index.js';
import { checkName } from '../../errors/names.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import { type LiveRuns, liveRunsAt } from '../live-runs.js';
import { Renewals } from '../run-lease.js';
import { canResume, type RunListing } from '../run-record.js';
import { storeClosed } from '../store-closed.js';
import { checkFileStoreOptions, checkStartOptions } from '../store-options.js';
import { Subscribers } from '../subscribers.js';
import {
  checkAfterSeq,
  checkRunId,
  describeTeam,
  isRunId,
  newRunId,
  requireTeam,
  sameSetup,
} from '../team-info.js';
import { taskList, teamState, withInfo } from '../team-state.js';
import type {
  ReadEventsOptions,
  ResumedRun,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
  TransactOptions,
} from '../team-store.js';
import { runRead, runTransaction, stampEvents } from '../transaction.js';
import type { FileWrite } from './file-commit.js';
import { TeamFeed } from './file-feed.js';
import { makeFolder, writeFileAtomic } from './file-io.js';
import { FileLayout } from './file-layout.js';
import { readConfig } from './file-load.js';
import { acquireLock, DEFAULT_LOCK_TIMING, type LockTiming, releasedLocksRemoved } from './file-lock.js';
import { LogReader } from './file-log-reader.js';
import { missingRunRecord, RunTeams, readRunLog } from './file-records.js';
import {
  clearRunner,
  readRunRecord,
  refuseIfRunElsewhere,
  renewLease,
  runnerLive,
  runnerNow,
  writeRunRecord,
} from './file-runs.js';
import { TeamCache } from './file-team-cache.js';
import { removeKeys } from './lock-owner.js';

/** What `new FileStore` takes. */
export interface FileStoreOptions {
  /** The store's folder. Default `./.agent-teams`. */
  root?: string;
  /** The clock tasks, messages and events are stamped with. Default: the system clock. */
  now?: () => Date;
  /** Lock staleness and wait, in ms. Default `{ stale: 10000, timeout: 60000 }`. */
  lock?: Partial<LockTiming>;
}

/**
 * Keeps teams in plain JSON files you can read with `cat` and `jq`; safe across
 * processes, survives crashes. Each transaction takes the team's lock file, brings its
 * cache up to date (re-reading only the files other processes changed, as the change log
 * names them), runs the rules and writes only the files that changed, each by temp file
 * and rename, journaled when a commit spans more than one file. While a team has
 * subscribers, it watches the team's commit stamp to pass other processes' commits on.
 *
 * @example
 * const store = new FileStore({ root: './.agent-teams' });
 * await store.createTeam('newsroom', { lead: 'editor', members: ['writer'] });
 * const task = await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
 */
export class FileStore implements TeamStore {
  /** The store's folder, as an absolute path. */
  readonly root: string;
  readonly #layout: FileLayout;
  readonly #now: () => Date;
  readonly #timing: LockTiming;
  readonly #teams: TeamCache;
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #subscribers = new Subscribers();
  readonly #log = new LogReader();
  readonly #runTeams = new RunTeams();
  readonly #feeds = new Map<string, TeamFeed>();
  #liveRuns: LiveRuns | undefined;
  readonly #renewals = new Renewals();
  #closed = false;

  constructor(options: FileStoreOptions = {}) {
    checkFileStoreOptions(options);
    this.#layout = new FileLayout(options.root ?? './.agent-teams');
    this.root = this.#layout.root;
    this.#teams = new TeamCache(this.#layout);
    this.#now = options.now ?? (() => new Date());
    this.#timing = { ...DEFAULT_LOCK_TIMING, ...options.lock };
  }

  async createTeam(name: string, setup: TeamSetup): Promise<TeamInfo> {
    this.#open();
    checkName('team', name);
    this.#layout.confineTeam(name);
    makeFolder(this.#layout.taskFolder(name));
    makeFolder(this.#layout.inboxFolder(name));
    return this.#locked(name, () => {
      const existing = readConfig(this.#layout, name);
      const info = describeTeam(name, setup, existing, this.#now(), randomUUID);
      if (existing && sameSetup(existing, info)) return existing;
      if (existing) this.#refuseIfLive(existing);
      const cached = existing ? this.#teams.sync(name) : this.#teams.blank(name, teamState(info));
      this.#teams.commit(name, { ...cached, state: withInfo(cached.state, info) }, ['config'], []);
      return info;
    });
  }

  async getTeam(name: string): Promise<TeamInfo | undefined> {
    this.#open();
    return readConfig(this.#layout, checkName('team', name));
  }

  async listTeams(): Promise<TeamInfo[]> {
    this.#open();
    const folder = this.#layout.teamsFolder();
    const teams: TeamInfo[] = [];
    for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
      const info = readConfig(this.#layout, name);
      if (info) teams.push(info);
    }
    return teams.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Runs `fn` first as a read, on the team as last committed, without the lock (see
   * `TeamCache.peek`): a transaction that only reads is done then, and writes nothing. At its
   * first change `fn` is stopped (before anything changes) and run again under the lock.
   */
  async transact<T>(name: string, fn: (rules: TeamRules) => T, options?: TransactOptions): Promise<T> {
    this.#open();
    checkName('team', name);
    const read = await this.#read(name, fn);
    if (read && 'error' in read) throw read.error;
    if (read) {
      options?.committed?.([]);
      return read.value;
    }
    const { value, events, stamp } = await this.#locked(name, () => {
      const cached = this.#teams.sync(name);
      const { value, changed, drafts } = runTransaction(cached.state, fn, this.#now);
      if (changed.length === 0 && drafts.length === 0) return { value, events: [], stamp: undefined };
      const events = stampEvents(cached.state, drafts, this.#now());
      // The roster is the team's info: its config.json.
      const keys = changed.map((key) => (key === 'roster' ? 'config' : key));
      const stamp = this.#teams.commit(name, cached, keys, events);
      this.#live().settle(name, events);
      // A run that ended is no longer run: its lease lapses.
      for (const event of events)
        if (event.type === 'team:complete' && event.runId) this.#renewals.stop(event.runId);
      return { value, events, stamp };
    });
    const feed = this.#feeds.get(name);
    if (feed) feed.own(events[0]?.runId ?? null, events, stamp);
    else this.#subscribers.publish(name, events);
    options?.committed?.(events);
    return value;
  }

  async startRun(name: string, options: { fresh?: boolean } = {}): Promise<TeamInfo> {
    this.#open();
    checkStartOptions(options);
    checkName('team', name);
    return this.#locked(name, () => {
      // A fresh run discards every task and inbox, so files gone from them do not stop it.
      const cached = options.fresh === false ? this.#teams.sync(name) : this.#teams.syncForFresh(name);
      this.#refuseIfLive(cached.state.info);
      const now = this.#now();
      const runId = newRunId(name, now);
      const info: TeamInfo = { ...cached.state.info, runId, updatedAt: now.toISOString() };
      this.#layout.confine(this.#layout.runFolder(runId));
      makeFolder(this.#layout.runFolder(runId));
      // The log before the record: a run whose record is there always had a log.
      writeFileAtomic(this.#layout.events(runId), '');
      const record = { runId, team: name, teamId: info.teamId, startedAt: info.updatedAt };
      writeRunRecord(this.#layout, { ...record, runner: runnerNow() });
      if (options.fresh === false) {
        // The list and inboxes stay for the new run; the requests were the last run's.
        const next = withInfo(cached.state, info, { requests: false });
        next.eventSeq = 0;
        this.#teams.commit(name, { ...cached, state: next }, ['config', 'requests'], []);
      } else {
        // Every task and inbox file goes.
        const old = cached.state;
        const removed: FileWrite[] = [
          ...taskList(old).tasks.map((task) => ({ path: this.#layout.task(name, task.id), content: null })),
          ...old.bus.agents().map((agent) => ({ path: this.#layout.inbox(name, agent), content: null })),
        ];
        this.#teams.commit(name, { ...cached, state: teamState(info) }, 'everything', [], removed);
      }
      this.#live().enter(name, runId);
      this.#renewals.start(runId, () => this.#renew(name, runId));
      return info;
    });
  }

  async resumeRun(name: string): Promise<ResumedRun | undefined> {
    this.#open();
    checkName('team', name);
    return this.#locked(name, () => {
      const { info } = this.#teams.sync(name).state;
      if (!info.runId) return undefined;
      const record = readRunRecord(this.#layout, info.runId);
      if (!record) throw missingRunRecord(this.#layout.runRecord(info.runId), info.runId);
      if (record.teamId !== info.teamId) return undefined;
      const events = this.#log.read(this.#layout.events(info.runId));
      if (!canResume(events)) return undefined;
      this.#refuseIfLive(info);
      writeRunRecord(this.#layout, { ...record, runner: runnerNow() });
      this.#live().enter(name, info.runId);
      const runId = info.runId;
      this.#renewals.start(runId, () => this.#renew(name, runId));
      return { info, events };
    });
  }

  async leaveRun(name: string, runId: string): Promise<void> {
    this.#open();
    checkName('team', name);
    checkRunId(runId);
    this.#renewals.stop(runId);
    await this.#locked(name, () => {
      this.#live().leave(name, runId);
      clearRunner(this.#layout, runId);
    });
  }

  /** Renews this process's lease on a run it runs, under the team's lock; false once it is not its own. */
  #renew(name: string, runId: string): Promise<boolean> {
    return this.#locked(name, () => renewLease(this.#layout, runId));
  }

  /** Every run of the store (or of `team`, or the one `runId`), newest first, with whether a live process runs it. */
  async listRuns(options: { team?: string; runId?: string } = {}): Promise<RunListing[]> {
    this.#open();
    const ids =
      options.runId !== undefined
        ? [checkRunId(options.runId)]
        : fs.existsSync(this.#layout.runsFolder())
          ? fs.readdirSync(this.#layout.runsFolder()).filter(isRunId)
          : [];
    const runs: RunListing[] = [];
    for (const id of ids) {
      const record = readRunRecord(this.#layout, id);
      if (!record || (options.team !== undefined && record.team !== options.team)) continue;
      runs.push({ ...record, live: runnerLive(record.runner) });
    }
    return runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** Throws `team-busy` while the team's current run is live, in this process or another. */
  #refuseIfLive(info: TeamInfo): void {
    this.#live().refuse(info.name, info.runId);
    refuseIfRunElsewhere(this.#layout, this.#log, info);
  }

  /** Called under a team's lock, so the root exists and resolves: looked up once. */
  #live(): LiveRuns {
    this.#liveRuns ??= liveRunsAt(this.root);
    return this.#liveRuns;
  }

  /** A run's events; `corrupt-file` when its log is gone, or shorter than the team's stamp records. */
  async readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]> {
    this.#open();
    const id = checkRunId(runId);
    const afterSeq = checkAfterSeq(options);
    const read = readRunLog(this.#layout, this.#log, id, afterSeq, this.#runTeams);
    if (Array.isArray(read)) return read;
    // Finished (or waited for) under the lock, as a transaction would, and read there: under
    // the lock, once synced, no journal is ahead of the stamp.
    return this.#locked(read.unfinished, () => {
      this.#teams.sync(read.unfinished);
      const synced = readRunLog(this.#layout, this.#log, id, afterSeq, this.#runTeams);
      if (Array.isArray(synced)) return synced;
      // Only a writer that ignores the lock leaves a journal ahead here.
      throw new TeamError(
        'corrupt-file',
        `${this.#layout.journal(read.unfinished)} is ahead of its stamp under the lock`,
      );
    });
  }

  /**
   * Listens to the team's committed events: this process's, and (while the team has a
   * listener) other processes', read from the run's log when the team's commit stamp changes.
   */
  subscribe(name: string, listener: TeamEventListener): () => void {
    this.#open();
    checkName('team', name);
    const remove = this.#subscribers.add(name, listener);
    if (!this.#feeds.has(name)) {
      const publish = (events: readonly TeamEvent[]) => this.#subscribers.publish(name, events);
      this.#feeds.set(name, new TeamFeed(this.#layout, name, this.#log, publish));
    }
    return () => {
      remove();
      if (this.#subscribers.count(name) > 0) return;
      this.#feeds.get(name)?.stop();
      this.#feeds.delete(name);
    };
  }

  /** Throws `store-closed` once `close()` was called. */
  #open(): void {
    if (this.#closed) throw storeClosed('FileStore');
  }

  /**
   * Stops watching for other processes' commits and waits for this store's work; later calls
   * are refused (`store-closed`). Idempotent.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#renewals.stopAll();
    for (const feed of this.#feeds.values()) feed.stop();
    this.#feeds.clear();
    await Promise.allSettled([...this.#queues.values()]);
    // Nothing of this process's locks is left in the folder once it is closed.
    await releasedLocksRemoved();
    removeKeys(this.root);
  }

  /**
   * `fn` as a read without the lock, after this process's earlier work on the team (so a read
   * sees what this process committed before it); `undefined` when it must run under the lock.
   */
  #read<T>(
    name: string,
    fn: (rules: TeamRules) => T,
  ): Promise<ReturnType<typeof runRead<T>>> | ReturnType<typeof runRead<T>> {
    const attempt = () => {
      const cached = this.#teams.peek(name);
      return cached && runRead(cached.state, fn, this.#now);
    };
    const previous = this.#queues.get(name);
    return previous ? previous.then(attempt) : attempt();
  }

  /** Runs `work` alone: after this process's earlier work on the team, inside the team's lock. */
  #locked<T>(name: string, work: () => T): Promise<T> {
    const previous = this.#queues.get(name) ?? Promise.resolve();
    const run = previous.then(async () => {
      const layout = this.#layout;
      const folder = layout.taskFolder(name);
      layout.confineTeam(name);
      let release: () => Promise<void>;
      try {
        release = await acquireLock(folder, layout.lock(name), this.#timing, () => layout.confineQueue(name));
      } catch (error) {
        // Looked for only when the lock cannot be had: no call of its own at every commit.
        if (!fs.existsSync(folder)) requireTeam(name, undefined);
        throw error;
      }
      try {
        return work();
      } finally {
        // A release fails only when the lock was already taken over as stale; the
        // commit is durable by then, so there is nothing left to undo.
        await release().catch(() => {});
      }
    });
    const settled = run.catch(() => {});
    this.#queues.set(name, settled);
    void settled.then(() => {
      if (this.#queues.get(name) === settled) this.#queues.delete(name);
    });
    return run;
  }
}
