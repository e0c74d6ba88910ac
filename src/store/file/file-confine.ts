import * as fs from 'node:fs';
import * as path from 'node:path';
import { TeamError } from '../../errors/index.js';

// The store writes only inside its own folder. A store folder is a thing people copy, unpack
// and check into repositories, so it may arrive holding a link (`tasks/newsroom/x → /etc`,
// or a whole team folder linked elsewhere): a write through it would land outside the store,
// made by a command that was asked only to read (`agent-teams tasks` finishing a journal).
// So every folder the store writes in is confirmed first: from the root down, each existing
// part is a real folder, not a link (the root itself may be a link: the user chose it). Files
// written in place are opened without following a link (file-io.ts); files replaced by
// rename replace a link rather than write through it.

/** The error for a link (or a non-folder) on the way to a folder the store writes in. */
function linkError(root: string, at: string, what: string): TeamError {
  const relative = path.relative(root, at);
  return new TeamError(
    'corrupt-file',
    `The store ${root} holds ${what} at ${relative}: the store makes no links, and a write there could land outside the store. Nothing was written; remove ${relative} (and check where the folder came from).`,
    { details: { file: at } },
  );
}

/** The part's own entry; `undefined` when it is not there (or the root is not a folder: making it says so). */
function lstat(at: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(at, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Throws `corrupt-file` unless `folder` lies inside `root` and every part of it that exists,
 * from `from` (the root, or a folder inside it confirmed already) down, is a real folder (not
 * a link, not a file). Parts missing yet are made by the store itself, inside the last real
 * one. Answers whether `folder` itself is there.
 */
function confineFolder(root: string, folder: string, from: string): boolean {
  const relative = path.relative(root, folder);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw linkError(root, folder, 'a path outside itself');
  }
  let at = from;
  for (const part of path.relative(from, folder).split(path.sep).filter(Boolean)) {
    at = path.join(at, part);
    const stat = lstat(at);
    if (!stat) return false;
    if (stat.isSymbolicLink()) {
      let target = '';
      try {
        target = ` (to ${fs.readlinkSync(at)})`;
      } catch {
        // Gone meanwhile: the link is named all the same.
      }
      throw linkError(root, at, `a link${target}`);
    }
    if (!stat.isDirectory()) throw linkError(root, at, 'a file where a folder belongs');
  }
  return true;
}

/** Folders confirmed by `confineFolder`, each checked once for the life of a store object. */
export class ConfinedFolders {
  readonly #root: string;
  readonly #confirmed = new Set<string>();

  constructor(root: string) {
    this.#root = root;
  }

  confirm(folder: string): void {
    if (this.#confirmed.has(folder)) return;
    // A folder that comes and goes (a lock's) is checked at each use, but from its confirmed
    // parent down: one lstat, not one per part from the root.
    const parent = path.dirname(folder);
    const from = this.#confirmed.has(parent) ? parent : this.#root;
    // A folder not made yet is confirmed again once it is there.
    if (confineFolder(this.#root, folder, from)) this.#confirmed.add(folder);
  }
}
