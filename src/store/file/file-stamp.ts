import { randomUUID } from 'node:crypto';
import { isTeamError } from '../../errors/index.js';
import { overwriteInPlace, readJson, readText, removeFile } from './file-io.js';
import type { FileLayout } from './file-layout.js';
import { lastSeq } from './file-log.js';
import { configSchema, type VersionStamp, versionSchema } from './file-schemas.js';

/**
 * The commit stamp (`tasks/{team}/.version`): the version of the team's last commit, the
 * epoch it belongs to, and the number of events logged in the run. A process whose cached
 * copy carries the same epoch and version is current. The stamp is derived data, written
 * in place for speed; should it ever be torn, it is rebuilt under a new epoch (so every
 * process reloads the team), with the event count read back from the run's log.
 */
export function readStamp(layout: FileLayout, team: string): VersionStamp {
  try {
    return readJson(layout.version(team), versionSchema) ?? { epoch: '', version: 0, eventSeq: 0 };
  } catch (error) {
    if (!isTeamError(error, 'corrupt-file')) throw error;
  }
  const runId = readJson(layout.config(team), configSchema)?.runId;
  // Counting the log's events cuts a torn last line: a write, confined like every other.
  if (runId) layout.confine(layout.runFolder(runId));
  const rebuilt = { epoch: randomUUID(), version: 0, eventSeq: runId ? lastSeq(layout.events(runId)) : 0 };
  // With the version lost, an old journal could look unfinished and be replayed over newer
  // files: drop it. (A torn stamp and an unfinished commit at once take a power loss.)
  removeFile(layout.journal(team));
  writeStamp(layout, team, rebuilt);
  return rebuilt;
}

export function writeStamp(layout: FileLayout, team: string, stamp: VersionStamp): void {
  writeStampText(layout, team, textOf(stamp));
}

/** Writes the stamp whose text (`textOf`) is `text`. */
export function writeStampText(layout: FileLayout, team: string, text: string): void {
  overwriteInPlace(layout.version(team), text);
}

export function newEpoch(): string {
  return randomUUID();
}

/**
 * The stamp's text as it is now, padding cut (`''` when there is none): what a reader without
 * the lock compares with the text its copy was read or written at.
 */
export function stampText(layout: FileLayout, team: string): string {
  return readText(layout.version(team))?.trimEnd() ?? '';
}

/** The stamp in `text` (as `stampText` reads it); `undefined` when torn. Never writes. */
export function parseStamp(text: string): VersionStamp | undefined {
  if (text === '') return { epoch: '', version: 0, eventSeq: 0 };
  try {
    const parsed = versionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The text `writeStamp` writes for `stamp`, padding aside. */
export function textOf(stamp: VersionStamp): string {
  return JSON.stringify(stamp);
}
