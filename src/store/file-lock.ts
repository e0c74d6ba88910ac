import * as fs from 'node:fs';
import lockfile from 'proper-lockfile';
import { TeamError } from '../errors/index.js';
import { recordOwner, takeOverFromDead } from './lock-owner.js';

export interface LockTiming {
  /** A lock older than this (its holder stopped refreshing it: crashed) is taken over. ms. */
  stale: number;
  /** How long to wait for a held lock before giving up with `store-locked`. ms. */
  timeout: number;
}

export const DEFAULT_LOCK_TIMING: LockTiming = { stale: 10_000, timeout: 60_000 };

const SUSPICIOUS_WAIT_MS = 250;

type Callback = (error: NodeJS.ErrnoException | null, value?: unknown) => void;

function synchronously(call: (...args: never[]) => unknown) {
  return (...args: unknown[]) => {
    const callback = args.pop() as Callback;
    let value: unknown;
    try {
      value = call(...(args as never[]));
    } catch (error) {
      callback(error as NodeJS.ErrnoException);
      return;
    }
    callback(null, value);
  };
}

// proper-lockfile takes the fs it calls. Answering its callbacks synchronously keeps a
// lock attempt to a few system calls, with no thread-pool round trips to lengthen the time
// the lock is held, or free but unclaimed. (Its own `lockSync` rebuilds such an object on
// every call, which costs more than the lock.) One object, so its mtime probe is cached.
const syncFs = {
  mkdir: synchronously(fs.mkdirSync),
  realpath: synchronously(fs.realpathSync),
  stat: synchronously(fs.statSync),
  rmdir: synchronously(fs.rmdirSync),
  utimes: synchronously(fs.utimesSync),
};

/**
 * Resolves when the lock folder is removed (its holder released it), as the OS's file
 * watching reports, or after `ms` at the latest. Watching the lock folder itself wakes a
 * waiter once per release and for nothing else. A missed or unsupported notification
 * costs latency, never correctness: the caller tries the lock again either way.
 */
function lockReleased(lockPath: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let watcher: fs.FSWatcher | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, ms);
    try {
      watcher = fs.watch(lockPath, { persistent: false }, done);
      watcher.on('error', done);
    } catch {
      done(); // gone already (released meanwhile), or no file watching here
    }
  });
}

/**
 * Takes the cross-process lock of a team (a lock folder via proper-lockfile, refreshed
 * while held, taken over when stale). While another process holds it, waits to be told
 * the lock folder changed, so the lock changes hands with no polling delay. Returns the release.
 */
export async function acquireLock(
  folder: string,
  lockPath: string,
  timing: LockTiming,
): Promise<() => Promise<void>> {
  const started = Date.now();
  const deadline = started + timing.timeout;
  for (let attempt = 0; ; attempt++) {
    // A lock that is held is waited out with one stat and a watch, not a failed attempt
    // each time: with many waiters, failed attempts would eat the CPU its holder needs.
    // A commit holds the lock for a millisecond or so: only a wait far longer than that is
    // worth asking whether the holder is dead (which costs reads that busy waiters would repeat).
    const suspicious = Date.now() - started > SUSPICIOUS_WAIT_MS;
    if (attempt > 0 && isHeld(lockPath, timing.stale) && !(suspicious && takeOverFromDead(lockPath))) {
      if (Date.now() > deadline) {
        throw new TeamError(
          'store-locked',
          `The lock ${lockPath} has been held by another process for over ${timing.timeout} ms; ` +
            'if no process uses this store, remove the lock folder.',
          { details: { lock: lockPath } },
        );
      }
      await lockReleased(lockPath, 5 + Math.random() * 5);
      continue;
    }
    try {
      const release = await lockfile.lock(folder, {
        fs: syncFs,
        lockfilePath: lockPath,
        realpath: false,
        stale: timing.stale,
        // A compromised lock means this process stalled past `stale`; the commit in flight
        // finishes, and the journal keeps the files whole either way.
        onCompromised: (error) =>
          console.error(`agent-teams: the lock ${lockPath} was compromised:`, error.message),
      });
      recordOwner(lockPath);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new TeamError('store-io', `Cannot take the lock ${lockPath}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  }
}

/** True while the lock folder exists and its holder keeps it fresh. */
function isHeld(lockPath: string, stale: number): boolean {
  const stat = fs.statSync(lockPath, { throwIfNoEntry: false });
  return stat !== undefined && stat.mtimeMs > Date.now() - stale;
}
