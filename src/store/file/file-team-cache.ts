import * as fs from 'node:fs';
import type { TeamEvent } from '../../events/team-event-map.js';
import { requireTeam } from '../team-info.js';
import type { TeamState } from '../team-state.js';
import { changeLine, changesEnd, MAX_CHANGES_BYTES, readChanges } from './file-changes.js';
import { type FileWrite, journalAhead, recoverJournal, stateWrites, writeCommit } from './file-commit.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { loadTeam, readConfig, refreshTeam } from './file-load.js';
import { logBytes } from './file-log.js';
import { checkListed, checkLog, isLostFile, logStart, nextFiles, recordsChanged } from './file-records.js';
import type { VersionStamp } from './file-schemas.js';
import { newEpoch, parseStamp, readStamp, stampText, textOf } from './file-stamp.js';

/** A team as this process last read it: the stamp it was read at and how far into the change log. */
export interface Cached {
  state: TeamState;
  stamp: VersionStamp;
  changesOffset: number;
  /** The stamp's text (`textOf`): a reader whose copy has the text on disk is current. */
  text: string;
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
   * drops the cache, so the next transaction reads the files again. Answers the stamp's text.
   */
  commit(
    name: string,
    cached: Cached,
    changed: Changed,
    events: TeamEvent[],
    extra: FileWrite[] = [],
  ): string {
    const { state } = cached;
    const layout = this.#layout;
    // A full change log, or a change to everything, starts a new epoch: every process reloads.
    const restart =
      changed === 'everything' || cached.changesOffset > MAX_CHANGES_BYTES || cached.stamp.epoch === '';
    const keys = changed === 'everything' ? (['config', 'highWatermark', 'requests'] as const) : changed;
    const writes = stateWrites(layout, name, state, keys);
    const runId = state.info.runId;
    const lines = events.map((event) => ({ seq: event.seq, line: JSON.stringify(event) }));
    if (runId) layout.confine(layout.runFolder(runId));
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
    const text = textOf(stamp);
    try {
      writeCommit(layout, name, {
        stamp,
        stampText: text,
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
    this.#cache.set(name, { state, stamp, changesOffset, text });
    return text;
  }

  /**
   * This process's copy of the team, brought up to the stamp on disk. A task file, inbox or
   * event log that the stamp records and that is gone or cut is `corrupt-file`, before
   * anything is written. Call under the lock.
   */
  sync(name: string): Cached {
    try {
      // Current, as the stamp's text says, and no commit left unfinished: nothing to read.
      const cached = this.#cache.get(name);
      if (cached && cached.text === stampText(this.#layout, name)) {
        if (!journalAhead(this.#layout, name, cached.stamp.version)) {
          checkLog(this.#layout, name, cached.stamp);
          return cached;
        }
      }
      recoverJournal(this.#layout, name);
      const stamp = readStamp(this.#layout, name);
      checkLog(this.#layout, name, stamp);
      if (cached && cached.stamp.epoch === stamp.epoch) {
        if (cached.stamp.version === stamp.version) return cached;
        const file = this.#layout.changes(name);
        const changes = readChanges(file, cached.changesOffset, cached.stamp.version, stamp.version);
        const state = changes && refreshTeam(this.#layout, name, cached.state, changes.keys, stamp);
        if (changes && state)
          return this.#remember(name, { state, stamp, changesOffset: changes.end, text: textOf(stamp) });
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
    return { state, stamp, changesOffset, text: textOf(stamp) };
  }

  /** A cache entry for a team that has no files yet. */
  blank(name: string, state: TeamState): Cached {
    const stamp = readStamp(this.#layout, name);
    return { state, stamp, changesOffset: changesEnd(this.#layout.changes(name)), text: textOf(stamp) };
  }

  /**
   * The team as last committed, had without the lock and without writing anything: this
   * process's copy when the stamp on disk is the one it was read or written at, else the files
   * read between two looks at the stamp that find it unchanged and no lock held (a writer
   * holds the lock from before it writes anything until after its stamp, so nothing changed
   * in between). `undefined` when a writer is at work, a commit is unfinished, or the stamp
   * moved meanwhile: the caller then reads under the lock. A file that is broken while
   * nothing moves is broken: its error is thrown, as under the lock.
   */
  peek(name: string): Cached | undefined {
    const layout = this.#layout;
    const before = stampText(layout, name);
    const cached = this.#cache.get(name);
    if (cached?.text === before) return cached;
    const lock = layout.lock(name);
    if (isHeld(lock)) return undefined;
    const stamp = parseStamp(before);
    if (!stamp || journalAhead(layout, name, stamp.version)) return undefined;
    let next: Cached | undefined;
    try {
      checkLog(layout, name, stamp);
      if (cached && cached.stamp.epoch === stamp.epoch) {
        const changes = readChanges(
          layout.changes(name),
          cached.changesOffset,
          cached.stamp.version,
          stamp.version,
        );
        // Changed in place: dropped below unless the read proves whole.
        const state = changes && refreshTeam(layout, name, cached.state, changes.keys, stamp);
        if (changes && state) next = { state, stamp, changesOffset: changes.end, text: before };
      }
      next ??= { ...this.#load(name, stamp), text: before };
    } catch (error) {
      this.#cache.delete(name);
      if (!isHeld(lock) && stampText(layout, name) === before) throw error;
      return undefined;
    }
    if (isHeld(lock) || stampText(layout, name) !== before) {
      this.#cache.delete(name);
      return undefined;
    }
    return this.#remember(name, next);
  }

  #remember(name: string, cached: Cached): Cached {
    this.#cache.set(name, cached);
    return cached;
  }
}

/** Whether the lock is there (held, or left by a holder that died: either way not ours to read past). */
function isHeld(lock: string): boolean {
  return fs.existsSync(lock);
}
