import * as fs from 'node:fs';
import { TeamError } from '../../errors/index.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import { ioError } from './file-io.js';

/** Where a read of a log ended: every whole line before `offset` was read; the last had `seq`. */
interface Checkpoint {
  readonly seq: number;
  readonly offset: number;
  /** Lines before `offset`, so an error names the line as `cat -n` would. */
  readonly line: number;
}

interface LogCache {
  /** The file the checkpoints belong to: a log replaced under the same name is read again whole. */
  readonly ino: number;
  /** Ascending by seq. */
  checkpoints: Checkpoint[];
}

const START: Checkpoint = { seq: 0, offset: 0, line: 0 };

/** A log line that is not an event of the log: named by its file and line, with how to recover. */
function brokenLine(file: string, line: number, problem: string): TeamError {
  return new TeamError(
    'corrupt-file',
    `The file ${file} is broken at line ${line}: ${problem}. Restore the file from a backup, or start ` +
      'the team afresh (`agent-teams run`, or `team.run()` with `fresh: true`: a new run with a log of ' +
      'its own; this one stays as it is); nothing was changed.',
    { details: { file, line } },
  );
}

/**
 * Line `line` of a log as an event: an object with its `type` and a `seq` past the line
 * before's (`previous`). Anything else is broken (a bit flipped, an edit by hand), never
 * passed over: a line skipped would be an event the run's state silently lacks.
 */
function parseLine(file: string, text: string, line: number, previous: number): TeamEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw brokenLine(file, line, 'it is not valid JSON');
  }
  const event = value as Partial<TeamEvent> | null;
  if (typeof event !== 'object' || event === null || Array.isArray(event) || typeof event.type !== 'string')
    throw brokenLine(file, line, 'it is not an event (an object with a type)');
  if (!Number.isInteger(event.seq) || (event.seq as number) <= previous)
    throw brokenLine(
      file,
      line,
      `its seq is ${JSON.stringify(event.seq)}, where one past ${previous} is due`,
    );
  return event as TeamEvent;
}
// Several readers of one run (the loop, the watch, a CLI follow) each read from where they
// stand; a few checkpoints per log serve them all without a whole read.
const CHECKPOINTS_PER_LOG = 16;
const LOGS = 64;

/**
 * Reads run logs (`events.jsonl`) incrementally: remembers where reads ended (seq → byte
 * offset) and reads only the bytes after the nearest such point, so catching up after the
 * last event folded costs what was appended since, not the whole log. A log shorter than a
 * remembered offset, or another file under its name, is read again from its start. A torn
 * last line (an append cut off by a crash, or still being written) is not an event and is
 * not read past.
 */
export class LogReader {
  readonly #logs = new Map<string, LogCache>();

  /**
   * The whole events of the log with `seq > afterSeq`, in order; none when it is missing.
   * `check` sees the log's size (`undefined`: missing) before anything is read, and may throw.
   */
  read(file: string, afterSeq = 0, check?: (size: number | undefined) => void): TeamEvent[] {
    let handle: number;
    try {
      handle = fs.openSync(file, 'r');
    } catch (error) {
      this.#logs.delete(file);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError('read', file, error);
      check?.(undefined);
      return [];
    }
    try {
      return this.#readFrom(file, handle, afterSeq, check);
    } catch (error) {
      this.#logs.delete(file);
      throw error;
    } finally {
      fs.closeSync(handle);
    }
  }

  #readFrom(
    file: string,
    handle: number,
    afterSeq: number,
    check?: (size: number | undefined) => void,
  ): TeamEvent[] {
    const { size, ino } = fs.fstatSync(handle);
    check?.(size);
    let cache = this.#logs.get(file);
    const furthest = cache?.checkpoints.at(-1)?.offset ?? 0;
    if (!cache || cache.ino !== ino || size < furthest) cache = { ino, checkpoints: [] };
    const from = cache.checkpoints.findLast((point) => point.seq <= afterSeq) ?? START;
    const buffer = Buffer.alloc(size - from.offset);
    const length = buffer.length > 0 ? fs.readSync(handle, buffer, 0, buffer.length, from.offset) : 0;
    const whole = buffer.subarray(0, buffer.subarray(0, length).lastIndexOf(0x0a) + 1);
    const lines = whole.length > 0 ? whole.toString('utf8').slice(0, -1).split('\n') : [];
    let previous = from.seq;
    const events = lines.map((line, index) => {
      const event = parseLine(file, line, from.line + index + 1, previous);
      previous = event.seq;
      return event;
    });
    this.#remember(file, cache, {
      seq: events.at(-1)?.seq ?? from.seq,
      offset: from.offset + whole.length,
      line: from.line + lines.length,
    });
    return events.filter((event) => event.seq > afterSeq);
  }

  #remember(file: string, cache: LogCache, point: Checkpoint): void {
    const kept = cache.checkpoints.filter((other) => other.seq !== point.seq);
    kept.push(point);
    kept.sort((a, b) => a.seq - b.seq);
    cache.checkpoints = kept.slice(-CHECKPOINTS_PER_LOG);
    // Most recently read last, so the oldest goes first when there are too many logs.
    this.#logs.delete(file);
    this.#logs.set(file, cache);
    if (this.#logs.size > LOGS) this.#logs.delete(this.#logs.keys().next().value as string);
  }
}
