import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TeamError } from '../errors/index.js';

/** A path a file tool was given, checked to stay inside the workspace. */
export interface WorkspacePath {
  /** Relative to the root, with `/`: what grants and patterns match. */
  readonly relative: string;
  /** Where it really is (links resolved), inside the root's real path. */
  readonly real: string;
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
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (!(await isMissing(existing))) refuse(`${given} goes through a link that leads nowhere: refused.`);
      existing = path.dirname(existing);
    }
  }
  const target = path.join(real, path.relative(existing, wanted));
  if (!isInside(realRoot, target)) refuse(`${given} leads out of the workspace through a link: refused.`);
  return { relative: relative === '.' ? '' : relative, real: target };
}
