import * as fs from 'node:fs';
import { findTask } from '../../board/task-list-state.js';
import { storedRequests } from '../../requests/request-state.js';
import { type TeamState, taskList } from '../team-state.js';
import { appendToFile, corrupt, readText, removeFile, writeAtStart, writeFileAtomic } from './file-io.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { appendLog, type LogAppend, lastSeq, writeLogAt } from './file-log.js';
import { type Journal, journalSchema, type VersionStamp } from './file-schemas.js';
import { newEpoch, readStamp, writeStamp, writeStampText } from './file-stamp.js';

/** One file of a commit: its new content, or `null` to remove it. */
export interface FileWrite {
  readonly path: string;
  readonly content: string | null;
}

export interface Commit {
  readonly stamp: VersionStamp;
  /** The stamp's text (`textOf(stamp)`), made once for the journal, the stamp and the cache. */
  readonly stampText: string;
  /** The stamp's records (which files exist, which run is logged) change with this commit. */
  readonly recordsChanged: boolean;
  /** The change-log line naming the changed keys, or `null` to empty the log (a new epoch). */
  readonly change: string | null;
  readonly files: readonly FileWrite[];
  /** The events to log, and `at`: the byte where the log's committed events end. */
  readonly log: (LogAppend & { readonly at: number }) | null;
}

/**
 * Writes one commit so that a crash of the writer at any point leaves all of it or none of
 * it once the next lock holder has recovered. The change log goes first, so readers re-read
 * every file the commit may have touched; then:
 * - one state file, no events and no change to the stamp's records: the stamp, then the
 *   file (a reader that sees the new stamp re-reads the file, old or new);
 * - anything else: the journal (the whole commit and its stamp, its version first), the
 *   files, the event log, and the stamp last. A journal whose version is past the stamp's
 *   was not finished: `recoverJournal` replays it.
 * Events always go through the journal, so the stamp is written after their log lines: the
 * stamp records how many events and bytes the log holds, and a log shorter than that is an
 * error. (The previous version wrote the stamp of a commit of events alone before the log,
 * so a crash between the two left a stamp counting events the log never got.) Now a crash
 * leaves the whole commit (replayed from the journal) or none of it: a torn line past the
 * recorded end, cut before the next append. Likewise a commit that adds or removes a state
 * file, or begins a run, changes the stamp's records, which must never run ahead of the files.
 * State files are replaced by temp file and rename, so a reader without the lock (`cat`)
 * always sees a whole file, old or new. The journal, change log and stamp are written in
 * place, one write each: a process that dies stops between writes, never inside one.
 * (Power loss is not covered: nothing is flushed to disk. Use PostgresStore for that.)
 */
export function writeCommit(layout: FileLayout, team: string, commit: Commit): void {
  const { files, log, stamp, stampText } = commit;
  const journaled = files.length > 1 || log !== null || commit.recordsChanged;
  if (journaled) {
    // A `Journal` but its stamp.
    const journal = {
      files: files.map((file) => ({ path: layout.relative(file.path), content: file.content })),
      log: log && { path: layout.relative(log.path), lines: log.lines },
    };
    // `JSON.stringify({ ...journal, stamp })`, with the stamp's text as made already.
    const body = `${JSON.stringify(journal).slice(0, -1)},"stamp":${stampText}}`;
    writeAtStart(layout.journal(team), `${journalHeader(stamp.version, Buffer.byteLength(body))}${body}`);
  }
  if (commit.change === null) writeFileAtomic(layout.changes(team), '');
  else appendToFile(layout.changes(team), commit.change);
  if (!journaled) writeStampText(layout, team, stampText);
  applyFiles(files);
  if (log) writeLogAt(log, log.at);
  if (journaled) writeStampText(layout, team, stampText);
}

/** The file writes that persist `keys` of a team's `state`. */
export function stateWrites(
  layout: FileLayout,
  team: string,
  state: TeamState,
  keys: readonly FileKey[],
): FileWrite[] {
  const list = taskList(state);
  return keys.map((key) => {
    const file = layout.fileOf(team, key);
    if (key === 'config') return { path: file, content: `${JSON.stringify(state.info, null, 2)}\n` };
    if (key === 'highWatermark') return { path: file, content: `${list.highWatermark}\n` };
    if (key === 'requests')
      return { path: file, content: `${JSON.stringify(storedRequests(state.requests), null, 2)}\n` };
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

// The journal is rewritten from its start and never truncated (truncating costs a flush),
// so it opens with a fixed-width header: its commit's version, then the length of the body
// that follows. Checking whether it is finished reads the header only.
const FIELD = 15;
const HEADER_BYTES = 2 * (FIELD + 1);

function journalHeader(version: number, length: number): string {
  return `${String(version).padStart(FIELD, '0')}\n${String(length).padStart(FIELD, '0')}\n`;
}

/** Read into by `journalHead`, one at a time (it is synchronous). */
const header = Buffer.alloc(HEADER_BYTES);

function journalHead(file: string): { version: number; length: number } {
  let handle: number;
  try {
    handle = fs.openSync(file, 'r');
  } catch {
    return { version: 0, length: 0 };
  }
  try {
    // What a short journal does not fill reads as zeros (no number), as in a fresh buffer.
    header.fill(0, fs.readSync(handle, header, 0, HEADER_BYTES, 0));
    const [version = 0, length = 0] = header.toString('latin1').split('\n').map(Number);
    return Number.isInteger(version) && Number.isInteger(length)
      ? { version, length }
      : { version: 0, length: 0 };
  } finally {
    fs.closeSync(handle);
  }
}

/** Whether the journal holds a commit past `version` (one in flight, or whose writer died). Reads only. */
export function journalAhead(layout: FileLayout, team: string, version: number): boolean {
  return journalHead(layout.journal(team)).version > version;
}

/**
 * Finishes a commit whose writer died part-way, if there is one, then starts a new epoch
 * so that every process reloads the team. Idempotent.
 */
export function recoverJournal(layout: FileLayout, team: string): void {
  const file = layout.journal(team);
  const stamp = readStamp(layout, team);
  const head = journalHead(file);
  if (head.version <= stamp.version) return;
  const body = Buffer.from(readText(file) ?? '').subarray(HEADER_BYTES, HEADER_BYTES + head.length);
  let journal: Journal | undefined;
  try {
    journal = journalSchema.parse(JSON.parse(body.toString('utf8')));
  } catch {
    // Torn while it was written: its writer died before touching a state file.
  }
  // A torn journal changed nothing else: the stamp's records stand.
  let next: VersionStamp = { ...stamp, epoch: newEpoch(), version: head.version };
  if (journal) {
    // Every path is checked before anything is written: a journal the store did not write
    // (a crafted folder) changes nothing.
    const named = (relative: string, kind: 'state' | 'log') => {
      const absolute = layout.journaled(team, relative, kind);
      if (absolute === undefined)
        throw corrupt(file, `it names ${relative}, which is not a file of the team ${team} in this store`);
      return absolute;
    };
    const files = journal.files.map((entry) => ({
      path: named(entry.path, 'state'),
      content: entry.content,
    }));
    const logPath = journal.log && named(journal.log.path, 'log');
    applyFiles(files);
    let eventSeq = stamp.eventSeq;
    if (journal.log && logPath) {
      appendLog({ path: logPath, lines: journal.log.lines }, lastSeq(logPath));
      eventSeq = lastSeq(logPath);
    }
    // A journal of the previous version holds no stamp: the records are left out, for the
    // next commit to write again.
    next = journal.stamp ?? { epoch: '', version: head.version, eventSeq };
    next = { ...next, epoch: newEpoch() };
  }
  writeStamp(layout, team, next);
}

function applyFiles(files: readonly FileWrite[]): void {
  for (const file of files) {
    if (file.content === null) removeFile(file.path);
    else writeFileAtomic(file.path, file.content);
  }
}
