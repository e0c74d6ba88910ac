import * as fs from 'node:fs';
import * as path from 'node:path';
import { TeamError } from '../../errors/index.js';
import type { Schema } from './file-validate.js';

// Synchronous on purpose: these run inside the team's lock, where a thread-pool hop per
// call would only lengthen the time others wait.

let tempCounter = 0;

/** A failed file operation as a `store-io` error naming the file (and an unwritable folder as such). */
export function ioError(action: string, file: string, cause: unknown): TeamError {
  if (cause instanceof TeamError) return cause;
  const code = (cause as NodeJS.ErrnoException).code;
  const hint =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? ' (the folder is not writable)'
      : code === 'ENOENT' && action === 'create the folder'
        ? ' (its file system takes no new folders there: give the store an ordinary folder)'
        : '';
  return new TeamError('store-io', `Cannot ${action} ${file}${hint}: ${(cause as Error).message}`, {
    details: { file, code },
    cause,
  });
}

const { O_APPEND, O_CREAT, O_NOFOLLOW, O_RDWR, O_WRONLY } = fs.constants;

/**
 * Opens a file the store writes in place, never through a link (see file-confine.ts): a link
 * there is refused as `corrupt-file` naming it, before a byte is written.
 */
export function openInPlace(file: string, flags: number): number {
  try {
    return fs.openSync(file, flags | O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new TeamError(
      'corrupt-file',
      `The file ${file} is a link: the store makes no links, and a write through it could land outside the store. Nothing was written; remove the link.`,
      { details: { file } },
    );
  }
}

/** Writes a file that was not there (`O_EXCL`: never through a link); one left under its name is removed first. */
function writeNew(file: string, content: string): void {
  try {
    fs.writeFileSync(file, content, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, content, { flag: 'wx' });
  }
}

/** Writes `content` so that readers see the old file or the new one, never a part: temp file, then rename. */
export function writeFileAtomic(file: string, content: string): void {
  const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  try {
    // A new file of its own (never one left there, nor through a link), renamed over the old
    // one: a link in the file's place is replaced, not written through.
    writeNew(temp, content);
    fs.renameSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(path.dirname(file))) {
      makeFolder(path.dirname(file));
      writeFileAtomic(file, content);
      return;
    }
    fs.rmSync(temp, { force: true });
    throw ioError('write', file, error);
  }
}

/** Writes `content` over the start of a file, leaving any longer old content after it. */
export function writeAtStart(file: string, content: string): void {
  let handle: number | undefined;
  try {
    handle = openInPlace(file, O_RDWR | O_CREAT);
    fs.writeSync(handle, content, 0);
  } catch (error) {
    throw ioError('write', file, error);
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

/**
 * Overwrites a file in place from its start, padding with spaces over any longer old
 * content, without truncating it. Not atomic: only for files whose readers can tell a torn
 * write. It avoids truncate and rename, which ext4 answers with a flush of the file.
 */
export function overwriteInPlace(file: string, content: string): void {
  let handle: number | undefined;
  try {
    handle = openInPlace(file, O_RDWR | O_CREAT);
    const size = fs.fstatSync(handle).size;
    fs.writeSync(handle, content.padEnd(size, ' '), 0);
  } catch (error) {
    throw ioError('write', file, error);
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

export function removeFile(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch (error) {
    throw ioError('remove', file, error);
  }
}

export function appendToFile(file: string, content: string): void {
  let handle: number | undefined;
  try {
    handle = openInPlace(file, O_WRONLY | O_APPEND | O_CREAT);
    fs.writeFileSync(handle, content);
  } catch (error) {
    throw ioError('append to', file, error);
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

/**
 * Makes `folder` and the folders missing on its way, one at a time. Not `mkdirSync`'s
 * `recursive`: under a special file system's folder (`/proc/self`), where mkdir answers that
 * the parent is missing though it is there, that loops forever. A file (or a device) on the
 * way is refused as not a folder.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(at, { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: a file further up; it is found and named on the way up.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR')
        throw ioError('create the folder', folder, error);
    }
    if (stat?.isDirectory()) break;
    if (stat) {
      throw new TeamError(
        'store-io',
        `Cannot create the folder ${folder}: ${at} is not a folder (a file or a device); give the store a folder.`,
        { details: { file: at } },
      );
    }
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing.reverse()) {
    try {
      fs.mkdirSync(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && fs.statSync(at, { throwIfNoEntry: false })?.isDirectory()) continue;
      throw ioError('create the folder', at, error);
    }
  }
}

/** Read into by `readText`, one read at a time (it is synchronous). */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * The file's text, or `undefined` when there is no such file. A file that fits the buffer
 * (every stamp, and nearly every state file) costs an open, one read and a close, where
 * `readFileSync` adds a stat and a second read to find the end: the stamp is read at every
 * transaction, and a short read of a file on disk is its end.
 */
export function readText(file: string): string | undefined {
  let handle: number;
  try {
    handle = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
  try {
    const read = fs.readSync(handle, readBuffer, 0, readBuffer.length, 0);
    // A larger file: read whole from its start (the read above did not move the position).
    return read < readBuffer.length ? readBuffer.toString('utf8', 0, read) : fs.readFileSync(handle, 'utf8');
  } catch (error) {
    throw ioError('read', file, error);
  } finally {
    fs.closeSync(handle);
  }
}

/** The file's text, or `undefined` when it cannot be read (missing, or anything else). */
export function tryReadText(file: string): string | undefined {
  try {
    return readText(file);
  } catch {
    return undefined;
  }
}

/** The names in a folder ending in `suffix` (temp files never match); none when it is missing. */
export function listFolder(folder: string, suffix: string): string[] {
  try {
    return fs.readdirSync(folder).filter((name) => name.endsWith(suffix) && !name.startsWith('.'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioError('list', folder, error);
  }
}

export function corrupt(file: string, problem: string): TeamError {
  return new TeamError(
    'corrupt-file',
    `The file ${file} is broken: ${problem}. Fix or remove it; nothing was changed.`,
    { details: { file } },
  );
}

/** Parses a JSON file against `schema`; `undefined` when missing; `corrupt-file` naming the file otherwise. */
export function readJson<T>(file: string, schema: Schema<T>): T | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `it is not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw corrupt(
      file,
      `it does not hold what it should${where} (${issue?.message ?? 'unexpected content'})`,
    );
  }
  return parsed.data;
}
