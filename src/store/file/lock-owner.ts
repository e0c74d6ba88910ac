import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { knownDead, type ProcessIdentity, thisProcess } from '../runner-identity.js';

// Who holds a team's lock. A holder that crashed stops refreshing the lock, and
// proper-lockfile takes it over once it is stale (10 s); a holder known dead (a process of
// this machine that is gone, see runner-identity.ts) is taken over at once, so a resume after
// `kill -9` need not wait.
//
// The lock names its holder itself: it is a hard link to the holder's key file
// (`<lock>-key-<pid>-<random>`), made once per process and team and holding the process's
// identity, so `cat .lock` says who holds it. Linking a file that is there costs the file
// system no new inode, where creating a file costs one, freed again at the release: on ext4
// that pair was the dearest part of a commit. `link` fails with EEXIST while any entry is in
// the lock's place, exactly as `O_EXCL` does, and never follows a link there. Where the file
// system makes no hard links, the lock is made with `O_EXCL` and the identity written into it.
//
// An earlier version's lock (an empty file, or a folder) named its holder in a record beside
// it (`<lock>-owner`) with the lock's birth time: that record is still read for such a lock.

interface Owner extends ProcessIdentity {
  readonly born?: string;
}

/** This process's key file per lock path, as made; `linkable` false where links fail. */
const keys = new Map<string, { file: string; linkable: boolean }>();

const KEY_INFIX = '-key-';

function identityText(): string {
  return `${JSON.stringify(thisProcess())}\n`;
}

/** Makes this process's key file for `lockPath`, removing the keys of processes known dead. */
function makeKey(lockPath: string): string {
  const folder = path.dirname(lockPath);
  const prefix = `${path.basename(lockPath)}${KEY_INFIX}`;
  // Once per process and team: a key left by a process that was killed goes here. (A key still
  // linked as the lock stays the lock: only its other name goes.)
  for (const name of fs.readdirSync(folder)) {
    if (!name.startsWith(prefix)) continue;
    const owner = readIdentity(path.join(folder, name));
    if (owner && knownDead(owner)) fs.rmSync(path.join(folder, name), { force: true });
  }
  const file = path.join(folder, `${prefix}${process.pid}-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(file, identityText(), { flag: 'wx' });
  return file;
}

/**
 * Takes the lock at `lockPath`: a hard link to this process's key file, its mtime made now first
 * (proper-lockfile judges staleness by the lock's mtime). EEXIST while the lock is held.
 */
export function makeLockFile(lockPath: string): void {
  let key = keys.get(lockPath);
  if (key?.linkable !== false) {
    for (let attempt = 0; ; attempt++) {
      try {
        if (!key) {
          key = { file: makeKey(lockPath), linkable: true };
          keys.set(lockPath, key);
        }
        const now = new Date();
        fs.utimesSync(key.file, now, now);
        fs.linkSync(key.file, lockPath);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw error;
        // The key was removed (a store of this process closed, or by hand): made again once.
        if (code === 'ENOENT' && attempt === 0 && key && fs.existsSync(path.dirname(lockPath))) {
          keys.delete(lockPath);
          key = undefined;
          continue;
        }
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error;
        // No hard links on this file system.
        if (key) key.linkable = false;
        else keys.set(lockPath, { file: '', linkable: false });
        break;
      }
    }
  }
  const handle = fs.openSync(lockPath, 'wx');
  try {
    fs.writeSync(handle, identityText());
  } finally {
    fs.closeSync(handle);
  }
}

/** Removes the key files this process made for locks under `root` (a store closing). */
export function removeKeys(root: string): void {
  for (const [lockPath, key] of keys) {
    if (!lockPath.startsWith(root + path.sep)) continue;
    keys.delete(lockPath);
    if (key.file) fs.rmSync(key.file, { force: true });
  }
}

function readIdentity(file: string): Owner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(file, 'utf8')) as Owner;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's birth time in ns, or `undefined` where the file system has none. */
function bornOf(lockPath: string): string | undefined {
  const born = fs.statSync(lockPath, { bigint: true, throwIfNoEntry: false })?.birthtimeNs;
  return born ? String(born) : undefined;
}

/** Whether the lock's holder is known dead: as the lock names it, or an earlier version's record. */
function ownerIsDead(lockPath: string): boolean {
  const named = readIdentity(lockPath);
  if (named) return knownDead(named);
  const born = bornOf(lockPath);
  const owner = readIdentity(`${lockPath}-owner`);
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
