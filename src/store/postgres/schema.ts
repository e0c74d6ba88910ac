import type { Pool } from 'pg';
import { TeamError } from '../../errors/index.js';

// The PostgresStore's tables, in a schema of their own (default `agent_teams`). The rules
// stay in TypeScript: the tables hold values (tasks, inboxes, events as JSON) and the few
// columns atomicity needs (the team's row to lock, its version and event counter).

/** A schema name the store takes: lower-case letters, digits and `_`, safe to quote. */
export const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,47}$/;

/** Checks a schema name (lower-case letters, digits, `_`) and answers it quoted for SQL. */
export function quoteSchema(schema: unknown): string {
  if (typeof schema !== 'string' || !SCHEMA_PATTERN.test(schema)) {
    throw new TeamError(
      'invalid-input',
      `schema, the PostgresStore's schema, must be lower-case letters, digits and _ (at most 48, not starting with a digit), not ${JSON.stringify(schema)}.`,
    );
  }
  return `"${schema}"`;
}

/** The NOTIFY channel of a schema's commits (the schema is checked, so the name is safe). */
export const channelOf = (schema: string) => `agent_teams_${schema}`;

/** Each migration, by version; applied in order, each once, recorded in `migrations`. */
const MIGRATIONS: readonly ((s: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.teams (
      name text PRIMARY KEY,
      info jsonb NOT NULL,
      version bigint NOT NULL DEFAULT 0,
      epoch bigint NOT NULL DEFAULT 0,
      event_seq integer NOT NULL DEFAULT 0,
      high_watermark integer NOT NULL DEFAULT 0
    );
    CREATE TABLE ${s}.tasks (
      team text NOT NULL REFERENCES ${s}.teams (name),
      id text NOT NULL,
      body jsonb NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (team, id)
    );
    CREATE TABLE ${s}.inboxes (
      team text NOT NULL REFERENCES ${s}.teams (name),
      agent text NOT NULL,
      messages jsonb NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (team, agent)
    );
    CREATE TABLE ${s}.runs (
      run_id text PRIMARY KEY,
      team text NOT NULL REFERENCES ${s}.teams (name),
      team_id text NOT NULL,
      started_at text NOT NULL,
      runner_pid integer,
      runner_host text
    );
    CREATE TABLE ${s}.events (
      run_id text NOT NULL REFERENCES ${s}.runs (run_id),
      seq integer NOT NULL,
      body jsonb NOT NULL,
      PRIMARY KEY (run_id, seq)
    );`,
  // Workers: which attempt at which turn may write for an agent of a run (see fences.ts).
  (s) => `
    CREATE TABLE ${s}.turn_fences (
      run_id text NOT NULL REFERENCES ${s}.runs (run_id),
      agent text NOT NULL,
      turn integer NOT NULL,
      attempt integer NOT NULL,
      PRIMARY KEY (run_id, agent)
    );`,
  // Requests and grants: kept with the team, so a tool checks them inside its transaction.
  (s) => `
    ALTER TABLE ${s}.teams ADD COLUMN requests jsonb;
    ALTER TABLE ${s}.teams ADD COLUMN requests_version bigint NOT NULL DEFAULT 0;`,
  // A run's lease: its runner renews it (run-lease.ts); the database's clock stamps and reads it.
  (s) => `ALTER TABLE ${s}.runs ADD COLUMN renewed_at timestamptz;`,
  // A turn attempt's lease on its fence (fences.ts): renewed by its worker while the turn runs.
  (s) => `
    ALTER TABLE ${s}.turn_fences ADD COLUMN lease_until timestamptz;
    ALTER TABLE ${s}.turn_fences ADD COLUMN attempts integer NOT NULL DEFAULT 0;`,
  // A runner's machine (where its pid means it) and its token (runner-identity.ts): a store
  // knows its own runs by the token, and a runner dead for sure by its machine, never by a host name.
  (s) => `
    ALTER TABLE ${s}.runs ADD COLUMN runner_machine text;
    ALTER TABLE ${s}.runs ADD COLUMN runner_token text;`,
  // Who listens to a team's commits (listener.ts): a commit NOTIFYs only when some other
  // process's listening session is here. A row names that session by its backend pid.
  (s) => `
    CREATE TABLE ${s}.listeners (
      team text NOT NULL,
      pid integer NOT NULL,
      PRIMARY KEY (team, pid)
    );`,
  // A commit sent without taking the team's lock first (locked.ts) marks its first event with
  // a token of its own: a commit whose answer was lost is known to have landed by it.
  (s) => `ALTER TABLE ${s}.events ADD COLUMN commit_token text;`,
  // Inboxes a row per message, so a commit writes only the messages it sent or marked read,
  // not every inbox it touched whole. `ord` keeps each inbox's order (messages are only ever
  // appended); a message dropped from its inbox (an old read one) keeps its row with no body,
  // at the version that dropped it, so a cache catching up drops it too.
  (s) => `
    CREATE TABLE ${s}.inbox_messages (
      team text NOT NULL REFERENCES ${s}.teams (name),
      agent text NOT NULL,
      id text NOT NULL,
      ord bigserial NOT NULL,
      body jsonb,
      version bigint NOT NULL,
      PRIMARY KEY (team, agent, id)
    );
    CREATE INDEX ON ${s}.inbox_messages (team, version);
    INSERT INTO ${s}.inbox_messages (team, agent, id, body, version)
      SELECT i.team, i.agent, m.x->>'id', m.x, i.version
      FROM ${s}.inboxes AS i, jsonb_array_elements(i.messages) WITH ORDINALITY AS m (x, n)
      ORDER BY i.team, i.agent, m.n;
    DROP TABLE ${s}.inboxes;`,
];

/** The schema version this code writes. */
const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema up to date: creates it and applies the migrations it lacks, in one
 * transaction under an advisory lock keyed by the schema, so processes starting at once
 * migrate one after the other (the later ones find nothing left to do). A schema migrated
 * by newer code is refused rather than written with old rules.
 */
export async function migrate(pool: Pool, schema: string): Promise<void> {
  const s = quoteSchema(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent-teams:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${s}.migrations`,
    );
    const applied = rows[0]?.version ?? 0;
    if (applied > SCHEMA_VERSION) {
      throw new TeamError(
        'store-io',
        `The schema ${schema} is at version ${applied}, newer than this agent-teams knows (${SCHEMA_VERSION}): upgrade agent-teams.`,
      );
    }
    for (let version = applied + 1; version <= SCHEMA_VERSION; version++) {
      await client.query((MIGRATIONS[version - 1] as (s: string) => string)(s));
      await client.query(`INSERT INTO ${s}.migrations (version) VALUES ($1)`, [version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
