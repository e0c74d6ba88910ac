import type { FileWrite } from './file-commit.js';
import { listFolder } from './file-io.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { wholeLength } from './file-log.js';
import type { FileRecord, VersionStamp } from './file-schemas.js';

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

/** Where the run's log ends before a commit: as the stamp records, or measured once when it does not. */
export function logStart(layout: FileLayout, previous: VersionStamp, runId: string): number {
  return previous.log?.runId === runId ? previous.log.bytes : wholeLength(layout.events(runId));
}

/** Whether a commit changes what the stamp records: then it must not write the stamp before its files. */
export function recordsChanged(before: VersionStamp, after: VersionStamp): boolean {
  const same = (a?: readonly string[], b?: readonly string[]) => a?.join('/') === b?.join('/');
  return (
    before.log?.runId !== after.log?.runId ||
    before.files === undefined ||
    !same(before.files.tasks, after.files?.tasks) ||
    !same(before.files.inboxes, after.files?.inboxes)
  );
}
