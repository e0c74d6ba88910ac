import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { findTask } from '../board/task-list-state.js';
import { TeamError } from '../errors/index.js';
import type { TeamEvent } from '../events/team-event-map.js';
import { checkName } from '../state/names.js';
import { changeLine, changesEnd, MAX_CHANGES_BYTES, readChanges } from './file-changes.js';
import { type FileWrite, recoverJournal, writeCommit } from './file-commit.js';
import { makeFolder, readJson, writeFileAtomic } from './file-io.js';
import { type FileKey, FileLayout } from './file-layout.js';
import { loadTeam, readConfig, refreshTeam } from './file-load.js';
import { acquireLock, DEFAULT_LOCK_TIMING, type LockTiming } from './file-lock.js';
import { LogReader } from './file-log-reader.js';
import { runRecordSchema, type VersionStamp } from './file-schemas.js';
import { newEpoch, readStamp } from './file-stamp.js';
import { isAlive } from './lock-owner.js';
import { canResume, type RunRecord, runStatus } from './run-record.js';
import { Subscribers } from './subscribers.js';
import { checkAfterSeq, checkRunId, describeTeam, newRunId, requireTeam } from './team-info.js';
import { type TeamState, taskList, teamState, withInfo } from './team-state.js';
import type {
  ReadEventsOptions,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
} from './team-store.js';
import { runTransaction, stampEvents } from './transaction.js';

export interface FileStoreOptions {
  /** The store's folder. Default `./.agent-teams`. */
  root?: string;
  /** The clock tasks, messages and events are stamped with. Default: the system clock. */
  now?: () => Date;
  /** Lock staleness and wait, in ms. Default `{ stale: 10000, timeout: 60000 }`. */
  lock?: Partial<LockTiming>;
}

/** A team as this process last read it: the stamp it was read at and how far into the change log. */
interface Cached {
  state: TeamState;
  stamp: VersionStamp;
  changesOffset: number;
}

const thisProcess = () => ({ pid: process.pid, host: hostname() });

/** Keys a commit changed, or everything (a fresh run): then every process reloads. */
type Changed = readonly FileKey[] | 'everything';

/**
 * Keeps teams in plain JSON files you can read with `cat` and `jq`; safe across
 * processes, survives crashes. Each transaction takes the team's lock file, brings its
 * cache up to date (re-reading only the files other processes changed, as the change log
 * names them), runs the rules and writes only the files that changed, each by temp file
 * and rename, journaled when a commit spans more than one file.
 *
 * @example
 * const store = new FileStore({ root: './.agent-teams' });
 * await store.createTeam('newsroom', { lead: 'editor', members: ['writer'] });
 * const task = await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
 */
export class FileStore implements TeamStore {
  readonly root: string;
  readonly #layout: FileLayout;
  readonly #now: () => Date;
  readonly #timing: LockTiming;
  readonly #cache = new Map<string, Cached>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #subscribers = new Subscribers();
  readonly #log = new LogReader();

  constructor(options: FileStoreOptions = {}) {
    this.#layout = new FileLayout(options.root ?? './.agent-teams');
    this.root = this.#layout.root;
    this.#now = options.now ?? (() => new Date());
    this.#timing = { ...DEFAULT_LOCK_TIMING, ...options.lock };
  }

  async createTeam(name: string, setup: TeamSetup): Promise<TeamInfo> {
    checkName('team', name);
    makeFolder(this.#layout.taskFolder(name));
    makeFolder(this.#layout.inboxFolder(name));
    return this.#locked(name, () => {
      const existing = readConfig(this.#layout, name);
      const info = describeTeam(name, setup, existing, this.#now(), randomUUID);
      const cached = existing ? this.#sync(name) : this.#blank(name, teamState(info));
      this.#commit(name, { ...cached, state: withInfo(cached.state, info) }, ['config'], []);
      return info;
    });
  }

  async getTeam(name: string): Promise<TeamInfo | undefined> {
    return readConfig(this.#layout, checkName('team', name));
  }

  async listTeams(): Promise<TeamInfo[]> {
    const folder = this.#layout.teamsFolder();
    const teams: TeamInfo[] = [];
    for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
      const info = readConfig(this.#layout, name);
      if (info) teams.push(info);
    }
    return teams.sort((a, b) => a.name.localeCompare(b.name));
  }

  async transact<T>(name: string, fn: (rules: TeamRules) => T): Promise<T> {
    checkName('team', name);
    const { value, events } = await this.#locked(name, () => {
      const cached = this.#sync(name);
      const { value, changed, drafts } = runTransaction(cached.state, fn, this.#now);
      if (changed.length === 0 && drafts.length === 0) return { value, events: [] };
      const events = stampEvents(cached.state, drafts, this.#now());
      this.#commit(name, cached, changed, events);
      return { value, events };
    });
    this.#subscribers.publish(name, events);
    return value;
  }

  async startRun(name: string, options: { fresh?: boolean } = {}): Promise<TeamInfo> {
    checkName('team', name);
    return this.#locked(name, () => {
      const cached = this.#sync(name);
      const now = this.#now();
      const info: TeamInfo = {
        ...cached.state.info,
        runId: newRunId(name, now),
        updatedAt: now.toISOString(),
      };
      this.#refuseIfRunning(cached.state.info);
      const runId = info.runId as string;
      makeFolder(this.#layout.runFolder(runId));
      this.#writeRunRecord({
        runId,
        team: name,
        teamId: info.teamId,
        startedAt: info.updatedAt,
        runner: thisProcess(),
      });
      writeFileAtomic(this.#layout.events(runId), '');
      if (options.fresh === false) {
        const next = withInfo(cached.state, info);
        next.eventSeq = 0;
        this.#commit(name, { ...cached, state: next }, ['config'], []);
      } else {
        // Every task and inbox file goes.
        const old = cached.state;
        const removed: FileWrite[] = [
          ...taskList(old).tasks.map((task) => ({ path: this.#layout.task(name, task.id), content: null })),
          ...old.bus.agents().map((agent) => ({ path: this.#layout.inbox(name, agent), content: null })),
        ];
        this.#commit(name, { ...cached, state: teamState(info) }, 'everything', [], removed);
      }
      return info;
    });
  }

  async resumeRun(name: string): Promise<{ info: TeamInfo; events: TeamEvent[] } | undefined> {
    checkName('team', name);
    return this.#locked(name, () => {
      const { info } = this.#sync(name).state;
      if (!info.runId) return undefined;
      const record = readJson(this.#layout.runRecord(info.runId), runRecordSchema);
      if (record?.teamId !== info.teamId) return undefined;
      const events = this.#log.read(this.#layout.events(info.runId));
      if (!canResume(events)) return undefined;
      this.#refuseIfRunning(info);
      this.#writeRunRecord({ ...record, runner: thisProcess() });
      return { info, events };
    });
  }

  #writeRunRecord(record: RunRecord): void {
    writeFileAtomic(this.#layout.runRecord(record.runId), `${JSON.stringify(record, null, 2)}\n`);
  }

  /**
   * A team's run that another live process on this machine is running cannot be restarted
   * or resumed under it: its tasks would change under its feet. (A runner that died — a
   * crash, `kill -9` — leaves the run to be resumed.)
   */
  #refuseIfRunning(info: TeamInfo): void {
    if (!info.runId) return;
    const runner = readJson(this.#layout.runRecord(info.runId), runRecordSchema)?.runner;
    if (!runner || runner.pid === process.pid || runner.host !== hostname() || !isAlive(runner.pid)) return;
    if (runStatus(this.#log.read(this.#layout.events(info.runId))) !== 'running') return;
    throw new TeamError(
      'team-busy',
      `The team ${info.name} is running in process ${runner.pid} (run ${info.runId}): ` +
        'wait for it to finish, or stop it (Ctrl-C) and resume it.',
      { details: { team: info.name, runId: info.runId, pid: runner.pid } },
    );
  }

  async readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]> {
    return this.#log.read(this.#layout.events(checkRunId(runId)), checkAfterSeq(options));
  }

  subscribe(name: string, listener: TeamEventListener): () => void {
    return this.#subscribers.add(name, listener);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#queues.values()]);
  }

  /** The file writes that persist `keys` of `state`. */
  #files(name: string, state: TeamState, keys: readonly FileKey[]): FileWrite[] {
    const list = taskList(state);
    return keys.map((key) => {
      const file = this.#layout.fileOf(name, key);
      if (key === 'config') return { path: file, content: `${JSON.stringify(state.info, null, 2)}\n` };
      if (key === 'highWatermark') return { path: file, content: `${list.highWatermark}\n` };
      if (key.startsWith('task:')) {
        const task = findTask(list, key.slice('task:'.length));
        return { path: file, content: task ? `${JSON.stringify(task, null, 2)}\n` : null };
      }
      return {
        path: file,
        content: `${JSON.stringify(state.bus.inbox(key.slice('inbox:'.length)), null, 2)}\n`,
      };
    });
  }

  /**
   * Writes a commit of `cached.state` and makes it this process's cache; a failed write
   * drops the cache, so the next transaction reads the files again.
   */
  #commit(
    name: string,
    cached: Cached,
    changed: Changed,
    events: TeamEvent[],
    extra: FileWrite[] = [],
  ): void {
    const { state } = cached;
    // A full change log, or a change to everything, starts a new epoch: every process reloads.
    const restart =
      changed === 'everything' || cached.changesOffset > MAX_CHANGES_BYTES || cached.stamp.epoch === '';
    const keys = changed === 'everything' ? (['config', 'highWatermark'] as const) : changed;
    const stamp = {
      epoch: restart ? newEpoch() : cached.stamp.epoch,
      version: cached.stamp.version + 1,
      eventSeq: state.eventSeq,
    };
    const change = restart ? null : changeLine(stamp.version, keys);
    const runId = state.info.runId;
    const lines = events.map((event) => ({ seq: event.seq, line: JSON.stringify(event) }));
    const log = lines.length > 0 && runId ? { path: this.#layout.events(runId), lines } : null;
    try {
      writeCommit(this.#layout, name, {
        stamp,
        change,
        files: [...extra, ...this.#files(name, state, keys)],
        log,
      });
    } catch (error) {
      this.#cache.delete(name);
      throw error;
    }
    const changesOffset = change === null ? 0 : cached.changesOffset + Buffer.byteLength(change);
    this.#cache.set(name, { state, stamp, changesOffset });
  }

  /** This process's copy of the team, brought up to the stamp on disk. Call under the lock. */
  #sync(name: string): Cached {
    try {
      recoverJournal(this.#layout, name);
      const stamp = readStamp(this.#layout, name);
      const cached = this.#cache.get(name);
      if (cached && cached.stamp.epoch === stamp.epoch) {
        if (cached.stamp.version === stamp.version) return cached;
        const file = this.#layout.changes(name);
        const changes = readChanges(file, cached.changesOffset, cached.stamp.version, stamp.version);
        const state = changes && refreshTeam(this.#layout, name, cached.state, changes.keys, stamp.eventSeq);
        if (changes && state) return this.#remember(name, { state, stamp, changesOffset: changes.end });
      }
      const info = requireTeam(name, readConfig(this.#layout, name));
      const changesOffset = changesEnd(this.#layout.changes(name));
      return this.#remember(name, {
        state: loadTeam(this.#layout, name, info, stamp.eventSeq),
        stamp,
        changesOffset,
      });
    } catch (error) {
      this.#cache.delete(name);
      throw error;
    }
  }

  /** A cache entry for a team that has no files yet. */
  #blank(name: string, state: TeamState): Cached {
    return {
      state,
      stamp: readStamp(this.#layout, name),
      changesOffset: changesEnd(this.#layout.changes(name)),
    };
  }

  #remember(name: string, cached: Cached): Cached {
    this.#cache.set(name, cached);
    return cached;
  }

  /** Runs `work` alone: after this process's earlier work on the team, inside the team's lock. */
  #locked<T>(name: string, work: () => T): Promise<T> {
    const previous = this.#queues.get(name) ?? Promise.resolve();
    const run = previous.then(async () => {
      if (!fs.existsSync(this.#layout.taskFolder(name))) requireTeam(name, undefined);
      const release = await acquireLock(this.#layout.taskFolder(name), this.#layout.lock(name), this.#timing);
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
