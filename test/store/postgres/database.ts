import { randomBytes } from 'node:crypto';
import { PostgresStore } from 'agent-teams/postgres';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The test server: 127.0.0.1:5432, trust auth, database `test` (or AGENT_TEAMS_TEST_POSTGRES). */
export const POSTGRES_URL =
  process.env.AGENT_TEAMS_TEST_POSTGRES || 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the test server answers. Under CI it must: an unreachable server fails the test
 * file instead of skipping it. Elsewhere the PostgreSQL tests skip, saying why.
 */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable under CI: ${error}`);
    console.warn(
      `Skipping the PostgreSQL tests: ${POSTGRES_URL} is unreachable (${error}). Install PostgreSQL and serve a database \`test\` on 127.0.0.1:5432 with trust auth (e.g. \`apt-get install -y postgresql\`), or set AGENT_TEAMS_TEST_POSTGRES to a database URL.`,
    );
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A schema name of its own for each store a test makes. */
export const randomSchema = () => `test_${randomBytes(6).toString('hex')}`;

/** Drops the schemas, with everything in them. */
async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    // With the schema of pg-boss's tables, where workers ran turns on it.
    for (const schema of schemas.flatMap((name) => [name, `${name}_boss`]))
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Makes PostgresStores, each on a new schema, for the test file that calls it; after the
 * file's tests, closes every store made and drops its schema. `reader(schema)` is one store
 * per schema for the test's own reads: a store made per look (a test polling a log) would
 * keep its idle connections for seconds each, and a file's polls add up to the server's limit.
 */
export function postgresStores(): {
  make: (schema?: string) => PostgresStore;
  reader: (schema: string) => PostgresStore;
  schemas: string[];
} {
  const stores: PostgresStore[] = [];
  const schemas: string[] = [];
  const readers = new Map<string, PostgresStore>();
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await dropSchemas(schemas);
  });
  return {
    schemas,
    make(schema?: string) {
      const name = schema ?? randomSchema();
      if (!schemas.includes(name)) schemas.push(name);
      const store = new PostgresStore({ connectionString: POSTGRES_URL, schema: name });
      stores.push(store);
      return store;
    },
    reader(schema: string) {
      let store = readers.get(schema);
      if (!store) {
        store = this.make(schema);
        readers.set(schema, store);
      }
      return store;
    },
  };
}
