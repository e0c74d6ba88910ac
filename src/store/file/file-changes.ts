import * as fs from 'node:fs';

/**
 * The change log (`tasks/{team}/.changes`): one line per commit, `version key key…`,
 * appended before the commit's files are written. A process that cached the team at some
 * version and byte offset reads only the lines after it to learn which files to re-read,
 * however many commits it missed. When the log grows past a bound it is emptied under a
 * new epoch of the commit stamp, which makes every process reload the team once.
 */
export const MAX_CHANGES_BYTES = 512 * 1024;

export function changeLine(version: number, keys: readonly string[]): string {
  return `${version} ${keys.join(' ')}\n`;
}

/** The log's size: where a process that has just read the whole team stands. */
export function changesEnd(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * The keys changed after version `from` up to `to`, read from byte `offset`, and the offset
 * after them. `undefined` when the log does not account for every version in between
 * (the caller then reads the team whole): reading the keys of a commit that never finished,
 * or twice, is harmless; missing one is not.
 */
export function readChanges(
  file: string,
  offset: number,
  from: number,
  to: number,
): { keys: Set<string>; end: number } | undefined {
  let text: string;
  try {
    const handle = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(handle).size;
      if (size < offset) return undefined;
      const buffer = Buffer.alloc(size - offset);
      fs.readSync(handle, buffer, 0, buffer.length, offset);
      text = buffer.toString('utf8');
    } finally {
      fs.closeSync(handle);
    }
  } catch {
    return undefined;
  }
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  const keys = new Set<string>();
  const seen = new Set<number>();
  for (const line of whole.split('\n')) {
    if (line === '') continue;
    const [version, ...changed] = line.split(' ');
    const number = Number(version);
    if (!Number.isInteger(number) || number <= from) return undefined;
    seen.add(number);
    for (const key of changed) if (key !== '') keys.add(key);
  }
  for (let version = from + 1; version <= to; version++) if (!seen.has(version)) return undefined;
  return { keys, end: offset + Buffer.byteLength(whole) };
}
