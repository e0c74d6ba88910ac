import * as fs from 'node:fs';
import { findTask } from '../../board/task-list-state.js';
import { isTeamError, TeamError } from '../../errors/index.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import { type TeamState, taskList } from '../team-state.js';
import { type FileWrite, journalAhead } from './file-commit.js';
import { ioError, listFolder, readJson, readText } from './file-io.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { wholeLength } from './file-log.js';
import type { LogReader } from './file-log-reader.js';
import { type FileRecord, runRecordSchema, type VersionStamp } from './file-schemas.js';

// How the FileStore knows which files must exist. A file the store wrote and that is gone
// must be told from one that never was, or a deleted task, inbox or event log reads as
// empty. So the commit stamp records, with each commit, the task ids and inbox agents that
// have a file, and the current run's log with its length in bytes. The stamp is the right
// place: every commit writes it anyway (no extra file), a commit that changes a record goes
// through the journal and writes the stamp last (so a crash never leaves a record ahead of
// its files), and a process of the previous version, which rewrites the stamp without the
// records, drops them rather than leaving them stale. A stamp without records (an older
// store, or one rebuilt after a torn write) checks nothing; the next commit writes them again,
// from the folders as they are.

const NO_FILES: FileRecord = { tasks: [], inboxes: [] };

/** A state file or event log the stamp records and that is gone or cut: `corrupt-file`, naming it. */
function lost(file: string, problem: string): TeamError {
  return new TeamError(
    'corrupt-file',
    `The file ${file} ${problem}. Restore it from a backup, or start the team afresh ` +
      '(`agent-teams run`, or `team.run()` with `fresh: true`, the default: it empties the task ' +
      'list and inboxes); nothing was changed.',
    { details: { file, lost: true } },
  );
}

/** True for the error of a recorded file that is gone, which a fresh run may discard. */
export function isLostFile(error: unknown): boolean {
  return isTeamError(error, 'corrupt-file') && error.details?.lost === true;
}

/** The task and inbox files in a team's folders: the record of a store that had none. */
function filesOnDisk(layout: FileLayout, team: string): FileRecord {
  const ids = (folder: string) => listFolder(folder, '.json').map((name) => name.slice(0, -'.json'.length));
  return { tasks: ids(layout.taskFolder(team)).sort(), inboxes: ids(layout.inboxFolder(team)).sort() };
}

/**
 * The files a team has after a commit that writes `writes` (one per key of `keys`): those
 * the last stamp records (none after `everything`, which removes them all; those in the
 * folders when the stamp has no record yet), plus the files written, less those removed.
 */
export function nextFiles(
  layout: FileLayout,
  team: string,
  previous: VersionStamp,
  everything: boolean,
  keys: readonly FileKey[],
  writes: readonly FileWrite[],
): FileRecord {
  const base = everything ? NO_FILES : (previous.files ?? filesOnDisk(layout, team));
  if (!keys.some((key) => key.startsWith('task:') || key.startsWith('inbox:'))) return base;
  // Most commits rewrite files the record has already: the same record, found by search.
  const kept = keys.every((key, index) => {
    const names = key.startsWith('task:') ? base.tasks : key.startsWith('inbox:') ? base.inboxes : undefined;
    return !names || (writes[index]?.content !== null && has(names, key.slice(key.indexOf(':') + 1)));
  });
  if (kept) return base;
  const tasks = new Set(base.tasks);
  const inboxes = new Set(base.inboxes);
  keys.forEach((key, index) => {
    const set = key.startsWith('task:') ? tasks : key.startsWith('inbox:') ? inboxes : undefined;
    const name = key.slice(key.indexOf(':') + 1);
    if (writes[index]?.content === null) set?.delete(name);
    else set?.add(name);
  });
  return { tasks: [...tasks].sort(), inboxes: [...inboxes].sort() };
}

/** Whether `sorted` (in `Array.prototype.sort` order) holds `name`, by bisection. */
function has(sorted: readonly string[], name: string): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = sorted[middle] as string;
    if (at === name) return true;
    if (at < name) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Where the run's log ends before a commit: as the stamp records, or measured once when it does not. */
export function logStart(layout: FileLayout, previous: VersionStamp, runId: string): number {
  return previous.log?.runId === runId ? previous.log.bytes : wholeLength(layout.events(runId));
}

/** Whether a commit changes what the stamp records: then it must not write the stamp before its files. */
export function recordsChanged(before: VersionStamp, after: VersionStamp): boolean {
  const same = (a?: readonly string[], b?: readonly string[]) => a === b || a?.join('/') === b?.join('/');
  return (
    before.log?.runId !== after.log?.runId ||
    before.files === undefined ||
    !same(before.files.tasks, after.files?.tasks) ||
    !same(before.files.inboxes, after.files?.inboxes)
  );
}

/** Throws when a file the stamp records is not in a state read from the folders. */
export function checkListed(layout: FileLayout, team: string, state: TeamState, files?: FileRecord): void {
  if (!files) return;
  const list = taskList(state);
  const stamp = layout.version(team);
  for (const id of files.tasks) {
    if (!findTask(list, id)) throw missingFile(layout.task(team, id), stamp);
  }
  const agents = new Set(state.bus.agents());
  for (const agent of files.inboxes) {
    if (!agents.has(agent)) throw missingFile(layout.inbox(team, agent), stamp);
  }
}

/**
 * The error for a run whose record (`run.json`) is gone while the team's config names the
 * run: it cannot be resumed (whose it is, is unknown), and it is not over either. Said as
 * missing, never as finished, so nobody is led to a fresh run that would empty the list.
 */
export function missingRunRecord(file: string, runId: string): TeamError {
  return new TeamError(
    'corrupt-file',
    `The file ${file} is missing (deleted or moved), though the team's config names its run ${runId}: ` +
      'the run cannot be resumed without it. Restore it from a backup (a fresh run, `agent-teams run`, ' +
      'would start over on an empty task list); nothing was changed.',
    { details: { file } },
  );
}

export function missingFile(file: string, stamp: string): TeamError {
  return lost(file, `is missing (deleted or moved), though the team's commit stamp ${stamp} records it`);
}

function sizeOf(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
}

/** Throws when a log of `size` bytes (`undefined`: missing) holds less than the stamp records. */
function checkLength(file: string, size: number | undefined, stamp: LogRecord, stampFile: string): void {
  const bytes = stamp.log?.bytes ?? 0;
  if (size !== undefined && size >= bytes) return;
  const counted = `${stamp.eventSeq} event${stamp.eventSeq === 1 ? '' : 's'} in ${bytes} bytes`;
  throw lost(
    file,
    size === undefined
      ? `is missing (deleted or moved), though the team's commit stamp ${stampFile} records ${counted}`
      : `holds ${size} bytes (emptied or cut), though the team's commit stamp ${stampFile} records ${counted}`,
  );
}

/** Throws when the current run's log is missing or shorter than the stamp records. Under the lock. */
export function checkLog(layout: FileLayout, team: string, stamp: VersionStamp): void {
  if (!stamp.log) return;
  const file = layout.events(stamp.log.runId);
  checkLength(file, sizeOf(file), stamp, layout.version(team));
}

/**
 * The run and log length the stamp records, for a reader without the lock: none when the
 * stamp is missing or caught mid-write. Only that part of it is checked (the stamp also
 * lists every task file, which this read, made for every catch-up of the log, has no use for).
 */
type LogRecord = Pick<VersionStamp, 'version' | 'eventSeq' | 'log'>;

function peekLog(file: string): LogRecord | undefined {
  const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  try {
    // The records the stamp ends with list every task file: this read stops before them.
    const text = readText(file);
    if (text === undefined) return undefined;
    const files = text.indexOf(',"files":');
    const stamp = JSON.parse(files < 0 ? text : `${text.slice(0, files)}}`) as {
      version?: unknown;
      eventSeq?: unknown;
      log?: { runId?: unknown; bytes?: unknown };
    };
    const { version, eventSeq, log } = stamp;
    if (!count(version) || !count(eventSeq) || typeof log?.runId !== 'string' || !count(log.bytes))
      return undefined;
    return {
      version: version as number,
      eventSeq: eventSeq as number,
      log: { runId: log.runId, bytes: log.bytes as number },
    };
  } catch {
    return undefined;
  }
}

/**
 * A run's logged events after `afterSeq`, read without the lock. The log of a run the store
 * made (its `run.json` is there) must be there, and hold at least what the stamp records when
 * it is the team's current run: the stamp is read first and written after the log, so a log
 * read after it is never shorter, unless something cut it. An unknown run has no events.
 */
/**
 * The team of each run, from its record (run.json), read once per run and store object: a run
 * never changes team, and a run's reader asks after every commit.
 */
export class RunTeams {
  readonly #known = new Map<string, string>();

  of(layout: FileLayout, runId: string): string | undefined {
    const known = this.#known.get(runId);
    if (known !== undefined) return known;
    const team = readJson(layout.runRecord(runId), runRecordSchema)?.team;
    if (team !== undefined) this.#known.set(runId, team);
    return team;
  }
}

/**
 * The run's logged events after `afterSeq`; or, when the team's journal holds a commit of this
 * run past its stamp (one whose writer is at work, or died), the team to finish it for first:
 * such a commit is committed, and a reader that went by the stamp alone would see less (a
 * crashed run's end missing until the next write).
 */
export function readRunLog(
  layout: FileLayout,
  reader: LogReader,
  runId: string,
  afterSeq: number,
  teams: RunTeams,
): TeamEvent[] | { unfinished: string } {
  const file = layout.events(runId);
  const team = teams.of(layout, runId);
  if (team === undefined) return reader.read(file, afterSeq);
  const stampFile = layout.version(team);
  const recorded = peekLog(stampFile);
  const current = recorded?.log?.runId === runId ? recorded : undefined;
  if (current && journalAhead(layout, team, current.version)) return { unfinished: team };
  return reader.read(file, afterSeq, (size) => {
    if (current) checkLength(file, size, current, stampFile);
    else if (size === undefined)
      throw lost(
        file,
        `is missing (deleted or moved), though its run's record ${layout.runRecord(runId)} exists`,
      );
  });
}
