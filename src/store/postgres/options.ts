import { checkKnownKeys } from '../../errors/check-options.js';
import { TeamError } from '../../errors/index.js';
import { quoteSchema } from './schema.js';

export interface PostgresStoreOptions {
  /** Where the database is: `postgres://user:password@host:5432/database`. */
  connectionString: string;
  /** The schema the store's tables live in; created if missing. Default `agent_teams`. */
  schema?: string;
  /** The clock tasks, messages and events are stamped with. Default: the system clock. */
  now?: () => Date;
  /** Connections the store's pool opens at most (besides one to listen). Default 10. */
  poolSize?: number;
  /**
   * Whether a commit waits for its WAL to reach the disk (PostgreSQL's `synchronous_commit`).
   * Default `true`. With `false` a commit answers sooner (several times on a slow disk); a
   * crash of the database server may then lose the last commits (about half a second) but
   * never tears one: the team comes back as it was after an earlier commit.
   */
  synchronousCommit?: boolean;
}

/** Checks a PostgresStore's options: only those it has, each of its type. */
export function checkPostgresStoreOptions(options: unknown): asserts options is PostgresStoreOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TeamError('invalid-input', 'A PostgresStore needs its options: { connectionString }.');
  }
  const given = options as Record<string, unknown>;
  checkKnownKeys('a PostgresStore', given, [
    'connectionString',
    'schema',
    'now',
    'poolSize',
    'synchronousCommit',
  ]);
  if (typeof given.connectionString !== 'string' || given.connectionString.trim() === '') {
    throw new TeamError(
      'invalid-input',
      'connectionString, where the PostgresStore’s database is, must be a non-empty string (postgres://…).',
    );
  }
  if (given.schema !== undefined) quoteSchema(given.schema);
  if (given.now !== undefined && typeof given.now !== 'function') {
    throw new TeamError(
      'invalid-input',
      'now, an option of a PostgresStore, must be a function answering a Date.',
    );
  }
  if (given.synchronousCommit !== undefined && typeof given.synchronousCommit !== 'boolean') {
    throw new TeamError(
      'invalid-input',
      'synchronousCommit, an option of a PostgresStore, must be true or false.',
    );
  }
  const size = given.poolSize;
  if (size !== undefined && (!Number.isInteger(size) || (size as number) < 1)) {
    throw new TeamError('invalid-input', 'poolSize of a PostgresStore must be a whole number, at least 1.');
  }
}
