import type { TeamEvent } from '../events/team-event-map.js';
import { changeLine, changesEnd, MAX_CHANGES_BYTES, readChanges } from './file-changes.js';
import { type FileWrite, recoverJournal, stateWrites, writeCommit } from './file-commit.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { loadTeam, readConfig, refreshTeam } from './file-load.js';
import { logBytes } from './file-log.js';
import { checkListed, checkLog, isLostFile, logStart, nextFiles, recordsChanged } from './file-records.js';
import type { VersionStamp } from './file-schemas.js';
import { newEpoch, readStamp } from './file-stamp.js';
import { requireTeam } from './team-info.js';
import type { TeamState } from './team-state.js';

/** A team as this process last read it: the stamp it was read at and how far into the change log. */
export interface Cached {
  state: TeamState;
  stamp: VersionStamp;
  changesOffset: number;
}

/** Keys a commit changed, or everything (a fresh run): then every process reloads. */
export type Changed = readonly FileKey[] | 'everything';

/**
 * A FileStore's copy of its teams, and the commits that change them. Every method runs under
 * the team's lock. A process re-reads only what other processes changed since its copy, as
 * the commit stamp and the change log tell; a failed read or write drops the copy, so the
 * next transaction reads the files again.
 */
export class TeamCache {
  readonly #layout: FileLayout;
  readonly #cache = new Map<string, Cached>();

  constructor(layout: FileLayout) {
    this.#layout = layout;
  }

  /**
   * Writes a commit of `cached.state` and makes it this process's cache; a failed write
   * drops the cache, so the next transaction reads the files again.
   */
  commit(name: string, cached: Cached, changed: Changed, events: TeamEvent[], extra: FileWrite[] = []): void {
    const { state } = cached;
    const layout = this.#layout;
    // A full change log, or a change to everything, starts a new epoch: every process reloads.
    const restart =
      changed === 'everything' || cached.changesOffset > MAX_CHANGES_BYTES || cached.stamp.epoch === '';
    const keys = changed === 'everything' ? (['config', 'highWatermark'] as const) : changed;
    const writes = stateWrites(layout, name, state, keys);
    const runId = state.info.runId;
    const lines = events.map((event) => ({ seq: event.seq, line: JSON.stringify(event) }));
    const at = runId ? logStart(layout, cached.stamp, runId) : 0;
    const stamp: VersionStamp = {
      epoch: restart ? newEpoch() : cached.stamp.epoch,
      version: cached.stamp.version + 1,
      eventSeq: state.eventSeq,
      ...(runId ? { log: { runId, bytes: at + logBytes(lines) } } : {}),
      files: nextFiles(layout, name, cached.stamp, changed === 'everything', keys, writes),
    };
    const change = restart ? null : changeLine(stamp.version, keys);
    const log = lines.length > 0 && runId ? { path: layout.events(runId), lines, at } : null;
    try {
      writeCommit(layout, name, {
        stamp,
        recordsChanged: recordsChanged(cached.stamp, stamp),
        change,
        files: [...extra, ...writes],
        log,
      });
    } catch (error) {
      this.#cache.delete(name);
      throw error;
    }
    const changesOffset = change === null ? 0 : cached.changesOffset + Buffer.byteLength(change);
    this.#cache.set(name, { state, stamp, changesOffset });
  }

  /**
   * This process's copy of the team, brought up to the stamp on disk. A task file, inbox or
   * event log that the stamp records and that is gone or cut is `corrupt-file`, before
   * anything is written. Call under the lock.
   */
  sync(name: string): Cached {
    try {
      recoverJournal(this.#layout, name);
      const stamp = readStamp(this.#layout, name);
      checkLog(this.#layout, name, stamp);
      const cached = this.#cache.get(name);
      if (cached && cached.stamp.epoch === stamp.epoch) {
        if (cached.stamp.version === stamp.version) return cached;
        const file = this.#layout.changes(name);
        const changes = readChanges(file, cached.changesOffset, cached.stamp.version, stamp.version);
        const state = changes && refreshTeam(this.#layout, name, cached.state, changes.keys, stamp);
        if (changes && state) return this.#remember(name, { state, stamp, changesOffset: changes.end });
      }
      return this.#remember(name, this.#load(name, stamp));
    } catch (error) {
      this.#cache.delete(name);
      throw error;
    }
  }

  /**
   * The team for a fresh run, which removes every task and inbox file: as `sync`, but a file
   * the stamp records and that is gone (the case a fresh run is the way out of) is passed
   * over. A team read so is not kept as this process's copy.
   */
  syncForFresh(name: string): Cached {
    try {
      return this.sync(name);
    } catch (error) {
      if (!isLostFile(error)) throw error;
    }
    return this.#load(name, readStamp(this.#layout, name), false);
  }

  #load(name: string, stamp: VersionStamp, check = true): Cached {
    const info = requireTeam(name, readConfig(this.#layout, name));
    const changesOffset = changesEnd(this.#layout.changes(name));
    const state = loadTeam(this.#layout, name, info, stamp.eventSeq);
    if (check) checkListed(this.#layout, name, state, stamp.files);
    return { state, stamp, changesOffset };
  }

  /** A cache entry for a team that has no files yet. */
  blank(name: string, state: TeamState): Cached {
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
}
