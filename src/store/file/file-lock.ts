import * as fs from 'node:fs';
import { TeamError } from '../../errors/index.js';
import { makeLockFile, takeOverFromDead } from './lock-owner.js';
import { LockQueue } from './lock-queue.js';

/**
 * How long a team's lock file may go unrefreshed, and how long a transaction waits for it.
 * @inline
 */
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

let released = 0;

/**
 * Removes a lock: a lock file (this version's) at once; a lock folder (an earlier version's,
 * taken over when stale) by renaming it aside, then removing it off the event loop, since
 * removing a folder costs over a millisecond and waiters see the lock gone at the rename.
 */
function removeLock(lock: string): void {
  try {
    fs.unlinkSync(lock);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM') throw error;
  }
  const aside = `${lock}.${process.pid}.${++released}.released`;
  fs.renameSync(lock, aside);
  const removed = new Promise<void>((resolve) => fs.rmdir(aside, () => resolve()));
  removing.add(removed);
  void removed.then(() => removing.delete(removed));
}

/** Lock folders renamed aside and not removed yet. */
const removing = new Set<Promise<void>>();

/** Settles once the lock folders released so far are gone (a store's `close` waits for it). */
export async function releasedLocksRemoved(): Promise<void> {
  await Promise.all([...removing]);
}

// proper-lockfile takes the fs it calls. Answering its callbacks synchronously keeps a
// lock attempt to a few system calls, with no thread-pool round trips to lengthen the time
// the lock is held, or free but unclaimed. (Its own `lockSync` rebuilds such an object on
// every call, which costs more than the lock.) One object, so its mtime probe is cached.
// Its `mkdir` and `rmdir` make and remove the lock file (see `makeLockFile`): a file, not a
// folder as proper-lockfile makes, since on ext4 making and removing a folder costs a block
// of the disk each time, and a lock is taken and released at every commit.
const syncFs = {
  mkdir: synchronously(makeLockFile),
  realpath: synchronously(fs.realpathSync),
  stat: synchronously(fs.statSync),
  rmdir: synchronously(removeLock),
  utimes: synchronously(fs.utimesSync),
};

/**
 * Resolves when `watched` (the lock file, or the ticket ahead in the queue) is removed, as
 * the OS's file watching reports, or after `ms` at the latest. A missed or unsupported
 * notification costs latency, never correctness: the caller looks at the lock again either way.
 */
function gone(watched: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let watcher: fs.FSWatcher | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, ms);
    try {
      watcher = fs.watch(watched, { persistent: false }, done);
      watcher.on('error', done);
    } catch {
      done(); // gone already, or no file watching here
    }
  });
}

// Loaded at the first lock (once: an import, even of a loaded module, goes through the
// loader): a process that only reads, as the inspection commands, never needs it.
let lockfile: typeof import('proper-lockfile') | undefined;

/** One attempt at the lock: its release, or `undefined` when another process holds it. */
async function tryLock(
  folder: string,
  lockPath: string,
  stale: number,
): Promise<(() => Promise<void>) | undefined> {
  try {
    lockfile ??= (await import('proper-lockfile')).default;
    const release = await lockfile.lock(folder, {
      fs: syncFs,
      lockfilePath: lockPath,
      realpath: false,
      stale,
      // A compromised lock means this process stalled past `stale`; the commit in flight
      // finishes, and the journal keeps the files whole either way.
      onCompromised: (error) =>
        console.error(`agent-teams: the lock ${lockPath} was compromised:`, error.message),
    });
    return release;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw new TeamError('store-io', `Cannot take the lock ${lockPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Takes the cross-process lock of a team (a lock file via proper-lockfile, refreshed
 * while held, taken over when stale or when its holder on this machine has died). While
 * another process holds it, waits its turn in the queue of waiters and is woken when the
 * lock changes hands, with no polling delay. Returns the release.
 */
export async function acquireLock(
  folder: string,
  lockPath: string,
  timing: LockTiming,
  confineQueue: () => void,
): Promise<() => Promise<void>> {
  const started = Date.now();
  const queue = new LockQueue(lockPath);
  let ticket: string | undefined;
  try {
    for (;;) {
      const release = await tryLock(folder, lockPath, timing.stale);
      if (release) return release;
      // Waited out with a stat and a watch, not a failed attempt each time: with many
      // waiters, failed attempts would eat the CPU the holder needs. A commit holds the lock
      // for a millisecond or so: only a far longer wait is worth asking whether the holder
      // is dead (reads that busy waiters would repeat).
      for (;;) {
        if (!isHeld(lockPath, timing.stale)) break;
        if (Date.now() - started > SUSPICIOUS_WAIT_MS && takeOverFromDead(lockPath)) break;
        if (Date.now() - started > timing.timeout) {
          throw new TeamError(
            'store-locked',
            `The lock ${lockPath} has been held by another process for over ${timing.timeout} ms; ` +
              'if no process uses this store, remove the lock.',
            { details: { lock: lockPath } },
          );
        }
        if (!ticket) {
          confineQueue();
          ticket = queue.join();
        }
        const ahead = queue.ahead(ticket);
        if (ahead) await gone(queue.path(ahead), 20);
        else await gone(lockPath, 5 + Math.random() * 5);
      }
    }
  } finally {
    if (ticket) queue.leave(ticket);
  }
}

/** True while the lock exists and its holder keeps it fresh. */
function isHeld(lockPath: string, stale: number): boolean {
  const stat = fs.statSync(lockPath, { throwIfNoEntry: false });
  return stat !== undefined && stat.mtimeMs > Date.now() - stale;
}
