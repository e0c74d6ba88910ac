import { badOption, checkOptionKeys, isMilliseconds, MILLISECONDS } from '../errors/check-options.js';

// Written by hand, not as zod schemas: a FileStore is made on the start of every inspection
// command (`agent-teams tasks`, `inbox`, `logs`, `teams`), and loading zod there made
// `agent-teams tasks` take 3.6 to 4.0 times `node -e 0` instead of 2.7 to 2.8 (bench:cli). The
// messages and the code (`invalid-option`) are those of the schemas (errors/check-options.ts).

/** An options object of the `known` keys (unknown ones refused), `{}` when not given. */
function object(what: string, value: unknown, known: readonly string[], path: readonly string[] = []) {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badOption(what, path, `an object: { ${known.map((key) => `${key}?`).join(', ')} }`, value);
  }
  checkOptionKeys(what, value, known, path);
  return value as Record<string, unknown>;
}

function milliseconds(what: string, path: readonly string[], value: unknown): void {
  if (value !== undefined && !isMilliseconds(value)) throw badOption(what, path, MILLISECONDS, value);
}

/**
 * Checks a FileStore's options. An empty root is refused: it would put the store's folders
 * in whatever folder the process runs in.
 */
export function checkFileStoreOptions(options: unknown): void {
  const what = 'a FileStore';
  const given = object(what, options, ['root', 'now', 'lock']);
  if (given.root !== undefined && (typeof given.root !== 'string' || given.root.trim() === '')) {
    throw badOption(what, ['root'], 'a non-empty path', given.root);
  }
  if (given.now !== undefined && typeof given.now !== 'function') {
    throw badOption(what, ['now'], 'a function answering a Date', given.now);
  }
  const lock = object(what, given.lock, ['stale', 'timeout'], ['lock']);
  milliseconds(what, ['lock', 'stale'], lock.stale);
  milliseconds(what, ['lock', 'timeout'], lock.timeout);
}

/** Checks the options of `startRun`: `fresh`, true or false. Answers whether the run is fresh. */
export function checkStartOptions(options: unknown): boolean {
  const given = object('startRun', options, ['fresh']);
  if (given.fresh !== undefined && typeof given.fresh !== 'boolean') {
    throw badOption('startRun', ['fresh'], 'true or false', given.fresh);
  }
  return given.fresh !== false;
}
