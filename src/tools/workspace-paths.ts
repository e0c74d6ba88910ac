import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TeamError } from '../errors/index.js';

/** A path a file tool was given, resolved (links followed) and checked to stay inside the workspace. */
export interface WorkspacePath {
  /**
   * Where the path really leads, relative to the root's real path, with `/` (`''` for the
   * root itself): what grants, `allowedPaths` and permission requests name. Through a link
   * inside the workspace, `docs/link/a.md` with `docs/link → ../src` is `src/a.md`.
   */
  readonly relative: string;
  /** The same place as an absolute path: the root's real path joined with `relative`. */
  readonly real: string;
  /** The root's real path. */
  readonly root: string;
}

function refuse(message: string): never {
  throw new TeamError('invalid-input', message);
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function isMissing(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Resolves `given` inside the workspace `root`, or refuses it with a reason the model can
 * act on: an absolute path, one that climbs out with `..`, or one that leads out through a
 * link (the real path of what exists of it must stay under the root's real path). A link
 * that leads nowhere is refused too: writing through it would create its target, anywhere.
 * Every link on the way is followed, so the answer says where a read or write really lands;
 * the file tools check permission there, and `workspace-files.ts` keeps their I/O to it.
 */
export async function resolveInWorkspace(root: string, given: string): Promise<WorkspacePath> {
  if (!given) refuse('Give a path relative to the workspace root.');
  const slashed = given.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) {
    refuse(`${given} is an absolute path: give a path relative to the workspace root.`);
  }
  const relative = path.posix.normalize(slashed).replace(/\/$/, '');
  if (relative === '..' || relative.startsWith('../'))
    refuse(`${given} leaves the workspace: stay inside it.`);
  const realRoot = await realpath(root);
  const wanted = path.join(realRoot, relative === '.' ? '' : relative);
  // The deepest part of the path that exists decides where the rest really goes.
  let existing = wanted;
  let real: string | undefined;
  while (real === undefined) {
    try {
      real = await realpath(existing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') refuse(`${given} goes through a file as if it were a folder.`);
      if (code !== 'ENOENT') throw error;
      if (!(await isMissing(existing))) refuse(`${given} goes through a link that leads nowhere: refused.`);
      existing = path.dirname(existing);
    }
  }
  const target = path.join(real, path.relative(existing, wanted));
  if (!isInside(realRoot, target)) refuse(`${given} leads out of the workspace through a link: refused.`);
  return {
    relative: path.relative(realRoot, target).split(path.sep).join('/'),
    real: target,
    root: realRoot,
  };
}
