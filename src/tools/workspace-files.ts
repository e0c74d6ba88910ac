import { constants, type Dirent } from 'node:fs';
import {
  access,
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  unlink,
} from 'node:fs/promises';
import path from 'node:path';
import { TeamError } from '../errors/index.js';
import type { WorkspacePath } from './workspace-paths.js';

// The file tools' I/O, kept to the place `resolveInWorkspace` resolved and permission was
// checked on, even when another process changes the folders meanwhile (a folder swapped for
// a link out of the workspace while a classifier is awaited, or in a loop).
//
// What is guaranteed, and how (on Linux):
// - Nothing is read or written through a link. Every file is opened with O_NOFOLLOW (a link
//   in the last place refuses the open), then the descriptor is asked where it really is:
//   /proc/self/fd/N is the kernel's own name for the open file, whatever path opened it. It
//   must be exactly the checked real path, or the call is refused before a byte is read or
//   written ("changed while it was written"), and a file the call made is removed again.
// - Nothing is made outside. A new file, and each folder `mkdir -p` makes for it, is made
//   in a folder held open and checked the same way, through its descriptor
//   (/proc/self/fd/N/name starts at that very folder, not at its name), so a folder swapped
//   for a link after the check cannot send it elsewhere.
// - A write opens without truncating, checks, then truncates and writes through the
//   descriptor: a refused write has changed no byte.
// - A file with more than one name (hard links) is never changed: a change there would
//   change it under its other names too, which no check of this path covers.
// What is not: a folder *moved* (renamed, not linked) out of the workspace after the check
// carries the file with it, as it would one written before the move. Where there is no
// /proc/self/fd (not Linux), folders are not held open: each is checked by its real path
// after it is made, and an opened file by its path's real path and the file that path
// names; a swap there and back again between an open and its check goes unseen.

const { O_CREAT, O_DIRECTORY, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants;
// O_NONBLOCK: opening a named pipe someone put in the workspace must not hang the turn.
const FILE = O_NOFOLLOW | O_NONBLOCK;

type How = 'read' | 'written';

let procFds: Promise<boolean> | undefined;
const kernelNamesFds = () =>
  (procFds ??= access('/proc/self/fd').then(
    () => true,
    () => false,
  ));

function refuse(message: string): never {
  throw new TeamError('invalid-input', message);
}

function changed(shown: string, how: How): TeamError {
  return new TeamError(
    'invalid-input',
    `${shown} changed while it was ${how} (a folder on its way is now a link, or moved): nothing was ${how}. Try again.`,
  );
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Throws unless `handle` is open on `real` itself (not through a link, not moved since). */
async function expectAt(handle: FileHandle, real: string, shown: string, how: How): Promise<void> {
  if (await kernelNamesFds()) {
    if ((await readlink(`/proc/self/fd/${handle.fd}`)) !== real) throw changed(shown, how);
    return;
  }
  const [opened, named, realNow] = await Promise.all([
    handle.stat(),
    lstat(real).catch(() => undefined),
    realpath(real).catch(() => undefined),
  ]);
  if (realNow !== real || named?.ino !== opened.ino || named?.dev !== opened.dev) throw changed(shown, how);
}

/** Opens `real` with `flags` and O_NOFOLLOW, checked to be the file or folder there. */
async function openAt(real: string, flags: number, shown: string, how: How): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(real, flags | O_NOFOLLOW);
  } catch (error) {
    // The path was resolved through folders to here: a link or a file in their place is new.
    if (codeOf(error) === 'ELOOP' || codeOf(error) === 'ENOTDIR') throw changed(shown, how);
    throw error;
  }
  try {
    await expectAt(handle, real, shown, how);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A folder checked to be at `real`; on Linux held open, and reached through its descriptor. */
interface Folder {
  readonly real: string;
  readonly handle?: FileHandle;
}

async function openFolder(real: string, shown: string, how: How): Promise<Folder> {
  if (await kernelNamesFds()) return { real, handle: await openAt(real, O_RDONLY | O_DIRECTORY, shown, how) };
  if ((await realpath(real)) !== real) throw changed(shown, how);
  return { real };
}

/** A path to `name` in `folder`: through its descriptor when it is held open. */
function inFolder(folder: Folder, name: string): string {
  return folder.handle ? `/proc/self/fd/${folder.handle.fd}/${name}` : path.join(folder.real, name);
}

/** The folder of `file`, checked; when `create`, its missing folders are made inside checked ones. */
async function openFolderOf(file: WorkspacePath, shown: string, create: boolean): Promise<Folder> {
  const target = path.dirname(file.real);
  if (!create) return openFolder(target, shown, 'written');
  let folder = await openFolder(file.root, shown, 'written');
  try {
    for (const name of path.relative(file.root, target).split(path.sep).filter(Boolean)) {
      await mkdir(inFolder(folder, name)).catch((error) => {
        if (codeOf(error) !== 'EEXIST') throw error;
      });
      const next = await openFolder(path.join(folder.real, name), shown, 'written');
      await folder.handle?.close();
      folder = next;
    }
    return folder;
  } catch (error) {
    await folder.handle?.close();
    throw error;
  }
}

/** A system error as a reason: the path as the model knows it, not the one opened. */
function explain(error: unknown, shown: string): unknown {
  const code = codeOf(error);
  if (code === 'ENOENT') return new TeamError('invalid-input', `There is no file ${shown} in the workspace.`);
  if (code === 'EISDIR') return new TeamError('invalid-input', `${shown} is a folder, not a file.`);
  if (error instanceof TeamError || typeof code !== 'string') return error;
  return new TeamError('invalid-input', `${shown}: ${(error as Error).message.split(',')[0]}.`, {
    cause: error,
  });
}

function refuseHardLinks(shown: string, links: number): void {
  if (links > 1)
    refuse(
      `${shown} is a file with ${links} names (hard links): a change here would change it under its other names too. Refused: write to a new file instead.`,
    );
}

/**
 * Refuses a change to `file` when it is one of several names of one file (hard links), with a
 * reason the model can act on: asked before permission is, so nobody is asked in vain.
 * `writeWorkspaceFile` checks again on the file it opened.
 */
export async function refuseHardLinked(file: WorkspacePath): Promise<void> {
  const info = await lstat(file.real).catch(() => undefined);
  if (info?.isFile()) refuseHardLinks(file.relative, info.nlink);
}

/** The text of the workspace file `file`, read only where it was resolved (see above). */
export async function readWorkspaceFile(file: WorkspacePath): Promise<string> {
  const shown = file.relative || '.';
  let handle: FileHandle;
  try {
    handle = await openAt(file.real, O_RDONLY | FILE, shown, 'read');
  } catch (error) {
    throw explain(error, shown);
  }
  try {
    if (!(await handle.stat()).isFile()) refuse(`There is no file ${shown} in the workspace.`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` as the whole of `file`, only where it was resolved (see above): made with
 * its folders when it is missing and `create`, else refused. `before` is awaited before the
 * first change (a folder or the file); it may refuse the write by throwing.
 */
export async function writeWorkspaceFile(
  file: WorkspacePath,
  content: string,
  { create, before }: { create: boolean; before?: () => Promise<void> },
): Promise<void> {
  const shown = file.relative || '.';
  if (!file.relative) refuse('Give the path of a file, not the workspace root.');
  await before?.();
  let folder: Folder | undefined;
  let handle: FileHandle | undefined;
  let made = false;
  try {
    folder = await openFolderOf(file, shown, create);
    const at = inFolder(folder, path.basename(file.real));
    try {
      handle = await open(at, O_WRONLY | FILE);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT' || !create) throw error;
      handle = await open(at, O_WRONLY | O_CREAT | O_EXCL | FILE);
      made = true;
    }
    try {
      await expectAt(handle, file.real, shown, 'written');
      const info = await handle.stat();
      if (!info.isFile()) refuse(`${shown} is not a regular file.`);
      refuseHardLinks(shown, info.nlink);
    } catch (error) {
      if (made) await removeMade(at, handle);
      throw error;
    }
    await handle.truncate(0);
    await handle.writeFile(content);
  } catch (error) {
    // What was resolved is gone, is a link now, or (making it) someone else made it.
    const code = codeOf(error);
    const moved = code === 'ELOOP' || code === 'EEXIST' || (code === 'ENOENT' && create);
    throw moved ? changed(shown, 'written') : explain(error, shown);
  } finally {
    await handle?.close();
    await folder?.handle?.close();
  }
}

/** Removes the file this call made, if `at` still names it. */
async function removeMade(at: string, handle: FileHandle): Promise<void> {
  const [opened, named] = await Promise.all([handle.stat(), lstat(at).catch(() => undefined)]);
  if (named?.ino === opened.ino && named.dev === opened.dev) await unlink(at).catch(() => {});
}

/**
 * The entries of the workspace folder at `real` (links not followed), or `undefined` when it
 * is no longer a folder there (swapped for a link, moved, removed).
 */
export async function readWorkspaceFolder(real: string): Promise<Dirent[] | undefined> {
  let folder: Folder;
  try {
    folder = await openFolder(real, real, 'read');
  } catch {
    return undefined;
  }
  try {
    return await readdir(folder.handle ? `/proc/self/fd/${folder.handle.fd}` : real, { withFileTypes: true });
  } finally {
    await folder.handle?.close();
  }
}
