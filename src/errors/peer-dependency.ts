import { TeamError } from './team-error.js';

/** An optional peer dependency: its package, what to install, and what needs it. */
export interface Peer {
  /** The package's name, as an import names it: `pg`. */
  readonly name: string;
  /** What `npm install` takes: `pg-boss@10`. */
  readonly install: string;
  /** What needs it, starting a sentence: `A PostgreSQL store`. */
  readonly neededBy: string;
}

/** Whether `error` is Node's for `name` not being installed (not for a module inside it). */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}

/**
 * Loads what needs an optional peer dependency (`pg`, `pg-boss`): when the package is not
 * installed, throws `missing-peer-dependency` saying what to install, so a program can tell
 * it from a failure of the package itself (which is thrown as it is).
 *
 * @example
 * const { PostgresStore } = await importPeer(() => import('./postgres-store.js'), PG);
 */
export async function importPeer<T>(load: () => Promise<T>, peer: Peer): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, peer.name)) throw error;
    throw new TeamError(
      'missing-peer-dependency',
      `${peer.neededBy} needs the package ${peer.name}: npm install ${peer.install}`,
      { details: { package: peer.name, install: peer.install }, cause: error },
    );
  }
}

/** `pg`, which a PostgresStore needs. */
export const PG: Peer = { name: 'pg', install: 'pg', neededBy: 'A PostgreSQL store' };

/** `pg-boss` (10.x), which running turns on workers needs. */
export const PG_BOSS: Peer = { name: 'pg-boss', install: 'pg-boss@10', neededBy: 'Running turns on workers' };
