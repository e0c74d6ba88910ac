import { badOption, checkOptionKeys } from '../../errors/check-options.js';
import { SCHEMA_PATTERN } from './schema.js';

/** What `new PostgresStore` takes. */
export interface PostgresStoreOptions {
  /** Where the database is: `postgres://user:password@host:5432/database`. */
  connectionString: string;
  /** The schema the store's tables live in; created if missing. Default `agent_teams`. */
  schema?: string;
  /** The clock tasks, messages and events are stamped with. Default: the system clock. */
  now?: () => Date;
  /** Connections the store's pool opens at most (besides one to listen): 1 to 1000. Default 10. */
  poolSize?: number;
  /**
   * Whether a commit waits for its WAL to reach the disk (PostgreSQL's `synchronous_commit`).
   * Default `true`. With `false` a commit answers sooner (several times on a slow disk); a
   * crash of the database server may then lose the last commits (about half a second) but
   * never tears one: the team comes back as it was after an earlier commit.
   */
  synchronousCommit?: boolean;
}

/** A pool past this is a typo: PostgreSQL's own default allows 100 connections in all. */
const MAX_POOL_SIZE = 1000;

const KNOWN = Object.keys({
  connectionString: true,
  schema: true,
  now: true,
  poolSize: true,
  synchronousCommit: true,
} satisfies Record<keyof PostgresStoreOptions, true>);

/**
 * Checks a PostgresStore's options: only those it has, each of its type. Written by hand, as
 * the inspection commands make one with `--postgres`: loading zod there made
 * `agent-teams tasks --postgres` take 270 ms of CPU instead of 200 (see store-options.ts).
 */
export function checkPostgresStoreOptions(options: unknown): asserts options is PostgresStoreOptions {
  const what = 'a PostgresStore';
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw badOption(
      what,
      [],
      'an object: { connectionString, schema?, now?, poolSize?, synchronousCommit? }',
      options,
    );
  }
  const given = options as Record<string, unknown>;
  checkOptionKeys(what, given, KNOWN);
  if (typeof given.connectionString !== 'string' || given.connectionString.trim() === '') {
    throw badOption(what, ['connectionString'], 'a non-empty string (postgres://…)', given.connectionString);
  }
  if (
    given.schema !== undefined &&
    (typeof given.schema !== 'string' || !SCHEMA_PATTERN.test(given.schema))
  ) {
    throw badOption(
      what,
      ['schema'],
      'lower-case letters, digits and _ (at most 48, not starting with a digit)',
      given.schema,
    );
  }
  if (given.now !== undefined && typeof given.now !== 'function') {
    throw badOption(what, ['now'], 'a function answering a Date', given.now);
  }
  const size = given.poolSize;
  if (
    size !== undefined &&
    (!Number.isInteger(size) || (size as number) < 1 || (size as number) > MAX_POOL_SIZE)
  ) {
    throw badOption(what, ['poolSize'], `a whole number from 1 to ${MAX_POOL_SIZE}`, size);
  }
  if (given.synchronousCommit !== undefined && typeof given.synchronousCommit !== 'boolean') {
    throw badOption(what, ['synchronousCommit'], 'true or false', given.synchronousCommit);
  }
}
