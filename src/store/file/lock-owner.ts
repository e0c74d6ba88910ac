import * as fs from 'node:fs';
import { knownDead, type ProcessIdentity, thisProcess } from '../runner-identity.js';
import { overwriteInPlace } from './file-io.js';

// Who holds a team's lock. A holder that crashed stops refreshing the lock, and
// proper-lockfile takes it over once it is stale (10 s); a holder known dead (a process of
// this machine that is gone, see runner-identity.ts) is taken over at once, so a resume after
// `kill -9` need not wait.
//
// The record lives beside the lock (`<lock>-owner`), rewritten in place by each new holder,
// and names the lock it belongs to by its birth time: a record left by an earlier holder
// never matches the lock a live process holds now.

interface Owner extends ProcessIdentity {
  readonly born: string;
}

const ownerFile = (lockPath: string) => `${lockPath}-owner`;

/** The lock's birth time in ns, or `undefined` where the file system has none. */
function bornOf(lockPath: string): string | undefined {
  const born = fs.statSync(lockPath, { bigint: true, throwIfNoEntry: false })?.birthtimeNs;
  return born ? String(born) : undefined;
}

export function recordOwner(lockPath: string): void {
  const born = bornOf(lockPath);
  if (born === undefined) return;
  try {
    overwriteInPlace(ownerFile(lockPath), JSON.stringify({ ...thisProcess(), born }));
  } catch {
    // Without the record the lock still works; only the early takeover is lost.
  }
}

function readOwner(lockPath: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(ownerFile(lockPath), 'utf8')) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function ownerIsDead(lockPath: string): boolean {
  const born = bornOf(lockPath);
  const owner = readOwner(lockPath);
  return born !== undefined && owner?.born === born && knownDead(owner);
}

const RECOVERY_STALE_MS = 10_000;

/**
 * Removes a lock whose holder on this machine has died; answers whether it did.
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
