import { existsSync } from 'node:fs';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { Option } from './commander.js';
import { DEFAULT_STORE } from './resume-hint.js';

// Which store a command works on: a FileStore folder (`--store`, the default) or a
// PostgreSQL database (`--postgres <url>`, or AGENT_TEAMS_POSTGRES_URL; `--schema` picks the
// store's schema there). Chosen in this one place for every command.

export interface StoreFlags {
  readonly store: string;
  readonly postgres?: string;
  readonly schema?: string;
}

/** The options of every command that works on a store. */
export const storeFlag = () =>
  new Option('--store <dir>', 'the store folder (a FileStore)').default(DEFAULT_STORE);
export const postgresFlag = () =>
  new Option('--postgres <url>', 'a PostgreSQL store instead: postgres://user@host:5432/db').env(
    'AGENT_TEAMS_POSTGRES_URL',
  );
export const schemaFlag = () =>
  new Option('--schema <name>', 'the PostgreSQL store’s schema (default agent_teams)');

/**
 * Opens the chosen store. A FileStore folder must exist unless `create` (a run makes it);
 * `pg` is loaded only for `--postgres`.
 */
export async function chooseStore(flags: StoreFlags, options: { create?: boolean } = {}): Promise<TeamStore> {
  if (flags.postgres !== undefined) {
    const { importPeer, PG } = await import('../errors/peer-dependency.js');
    const { PostgresStore } = await importPeer(() => import('../store/postgres/postgres-store.js'), PG);
    return new PostgresStore({
      connectionString: flags.postgres,
      ...(flags.schema === undefined ? {} : { schema: flags.schema }),
    });
  }
  if (flags.schema !== undefined)
    throw new CliError('--schema is for a PostgreSQL store: give --postgres too');
  if (!options.create && !existsSync(flags.store)) {
    throw new CliError(
      `no store at ${flags.store}: run a team first (npx agent-teams demo), or give --store`,
    );
  }
  const { FileStore } = await import('../store/file/file-store.js');
  return new FileStore({ root: flags.store });
}

/** Where a store keeps its teams, for messages. */
export function whereOf(store: TeamStore): string {
  if ('root' in store && typeof store.root === 'string') return store.root;
  if ('schema' in store && typeof store.schema === 'string') return `the PostgreSQL schema ${store.schema}`;
  return 'the store';
}
