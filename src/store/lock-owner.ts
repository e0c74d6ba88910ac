import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Who holds a lock folder, written inside it once it is taken. A holder that crashed stops
// refreshing the folder, and proper-lockfile takes it over once it is stale (10 s); a holder
// on this machine whose process is gone is known dead at once, so a resume after `kill -9`
// need not wait.

interface Owner {
  readonly pid: number;
  readonly host: string;
}

const OWNER_FILE = 'owner.json';

export function recordOwner(lockPath: string): void {
  try {
    fs.writeFileSync(
      path.join(lockPath, OWNER_FILE),
      JSON.stringify({ pid: process.pid, host: os.hostname() }),
    );
  } catch {
    // Without the record the lock still works; only the early takeover is lost.
  }
}

function readOwner(lockPath: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lockPath, OWNER_FILE), 'utf8')) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerIsDead(lockPath: string): boolean {
  const owner = readOwner(lockPath);
  return owner !== undefined && owner.host === os.hostname() && !isAlive(owner.pid);
}

const RECOVERY_STALE_MS = 10_000;

/**
 * Removes a lock folder whose holder on this machine has died; answers whether it did.
 * The check and the removal happen under a second lock (`<lock>-recovery`), and the owner is
 * read again under it, so two waiters can never both remove a lock, nor remove one a live
 * process has just taken.
 */
export function takeOverFromDead(lockPath: string): boolean {
  if (!ownerIsDead(lockPath)) return false;
  const recovery = `${lockPath}-recovery`;
  try {
    fs.mkdirSync(recovery);
  } catch {
    // Someone else recovers; a recovery lock left by a crash expires.
    const stat = fs.statSync(recovery, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < Date.now() - RECOVERY_STALE_MS)
      fs.rmSync(recovery, { recursive: true, force: true });
    return false;
  }
  try {
    if (!ownerIsDead(lockPath)) return false;
    fs.rmSync(lockPath, { recursive: true, force: true });
    return true;
  } finally {
    fs.rmSync(recovery, { recursive: true, force: true });
  }
}
