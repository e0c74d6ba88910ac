import * as fs from 'node:fs';
import { TeamError } from '../../errors/index.js';
import { appendToFile, corrupt, ioError, openInPlace } from './file-io.js';

/** Events a commit appends to a run's log, each with its place in the log. */
export interface LogAppend {
  readonly path: string;
  readonly lines: readonly { readonly seq: number; readonly line: string }[];
}

/** Appends the lines whose seq is past `after`, so replaying an append never doubles an event. */
export function appendLog(append: LogAppend, after: number): void {
  const fresh = append.lines.filter((line) => line.seq > after);
  if (fresh.length > 0) appendToFile(append.path, fresh.map((line) => `${line.line}\n`).join(''));
}

/** The bytes the lines take in the log. */
export function logBytes(lines: LogAppend['lines']): number {
  return lines.reduce((sum, line) => sum + Buffer.byteLength(line.line) + 1, 0);
}

/**
 * Writes a commit's lines at byte `at`, where the log's committed events end (as the commit
 * stamp records). Whatever lies past `at` belongs to no finished commit (a line torn by a
 * crash) and is cut first. The log is never created here: `startRun` makes it, so a log that
 * is gone is an error, never a new log holding only the latest events.
 */
export function writeLogAt(append: LogAppend, at: number): void {
  let handle: number | undefined;
  try {
    handle = openInPlace(append.path, fs.constants.O_RDWR);
    if (fs.fstatSync(handle).size > at) fs.ftruncateSync(handle, at);
    const text = Buffer.from(append.lines.map((line) => `${line.line}\n`).join(''));
    fs.writeSync(handle, text, 0, text.length, at);
  } catch (error) {
    throw ioError('append to', append.path, error);
  } finally {
    if (handle !== undefined) fs.closeSync(handle);
  }
}

const TAIL_BYTES = 256 * 1024;

/**
 * Cuts a torn last line (which only a crash in the middle of an append leaves) off a log;
 * answers its length in bytes and its last whole line, if any. A missing log is empty.
 */
function cutTornLine(file: string): { bytes: number; last: string | undefined } {
  let handle: number;
  try {
    handle = openInPlace(file, fs.constants.O_RDWR);
  } catch (error) {
    // A link in the log's place is refused; a log that is missing (or unreadable) is empty here.
    if (error instanceof TeamError) throw error;
    return { bytes: 0, last: undefined };
  }
  try {
    const size = fs.fstatSync(handle).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    fs.readSync(handle, buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    const end = text.lastIndexOf('\n');
    const bytes = start + Buffer.byteLength(text.slice(0, end + 1));
    if (bytes < size) fs.ftruncateSync(handle, bytes);
    return { bytes, last: end === -1 ? undefined : text.slice(0, end).split('\n').at(-1) };
  } finally {
    fs.closeSync(handle);
  }
}

/** The seq of the last whole event in a log (0 when empty or missing), a torn last line cut first. */
export function lastSeq(file: string): number {
  const { last } = cutTornLine(file);
  if (last === undefined) return 0;
  try {
    return (JSON.parse(last) as { seq: number }).seq;
  } catch {
    throw corrupt(file, 'its last event is not valid JSON');
  }
}

/** The length in bytes of a log's whole lines (0 when missing), a torn last line cut first. */
export function wholeLength(file: string): number {
  return cutTornLine(file).bytes;
}
