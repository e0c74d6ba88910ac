import * as fs from 'node:fs';
import { appendToFile, corrupt } from './file-io.js';

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

const TAIL_BYTES = 256 * 1024;

/**
 * The seq of the last whole event in a log (0 when empty or missing). A torn last line,
 * which only a crash in the middle of an append leaves, is cut off first.
 */
export function lastSeq(file: string): number {
  let handle: number;
  try {
    handle = fs.openSync(file, 'r+');
  } catch {
    return 0;
  }
  try {
    const size = fs.fstatSync(handle).size;
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    fs.readSync(handle, buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < text.length - 1) fs.ftruncateSync(handle, start + Buffer.byteLength(text.slice(0, end + 1)));
    if (end === -1) return 0;
    const lines = text.slice(0, end).split('\n');
    try {
      return (JSON.parse(lines[lines.length - 1] as string) as { seq: number }).seq;
    } catch {
      throw corrupt(file, 'its last event is not valid JSON');
    }
  } finally {
    fs.closeSync(handle);
  }
}
