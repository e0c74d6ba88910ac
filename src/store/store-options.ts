import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';

function object(what: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TeamError('invalid-input', `The options of ${what} must be an object.`);
  }
  return value as Record<string, unknown>;
}

function clock(what: string, now: unknown): void {
  if (now !== undefined && typeof now !== 'function') {
    throw new TeamError('invalid-input', `now, an option of ${what}, must be a function answering a Date.`);
  }
}

/** Checks a MemoryStore's options: only those it has, each of its type. */
export function checkMemoryStoreOptions(options: unknown): void {
  const given = object('a MemoryStore', options);
  checkKnownKeys('a MemoryStore', given, ['now']);
  clock('a MemoryStore', given.now);
}

/**
 * Checks a FileStore's options. An empty root is refused: it would put the store's folders
 * in whatever folder the process runs in.
 */
export function checkFileStoreOptions(options: unknown): void {
  const given = object('a FileStore', options);
  checkKnownKeys('a FileStore', given, ['root', 'now', 'lock']);
  if (given.root !== undefined && (typeof given.root !== 'string' || given.root.trim() === '')) {
    throw new TeamError('invalid-input', 'root, the folder of a FileStore, must be a non-empty path.');
  }
  clock('a FileStore', given.now);
  const lock = object('the FileStore lock', given.lock);
  checkKnownKeys('the FileStore lock', lock, ['stale', 'timeout']);
  for (const key of ['stale', 'timeout'] as const) {
    const value = lock[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new TeamError(
        'invalid-input',
        `lock.${key} of a FileStore must be a whole number of ms, at least 1.`,
      );
    }
  }
}

/** Checks the options of `startRun`: `fresh`, true or false. */
export function checkStartOptions(options: unknown): boolean {
  const given = object('startRun', options);
  checkKnownKeys('startRun', given, ['fresh']);
  if (given.fresh !== undefined && typeof given.fresh !== 'boolean') {
    throw new TeamError('invalid-input', 'fresh, an option of startRun, must be true or false.');
  }
  return given.fresh !== false;
}
