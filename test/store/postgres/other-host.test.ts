import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { otherHostCases } from '../other-host.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
afterAll(() => admin.end());

describe.skipIf(!reachable)('PostgresStore', () => {
  otherHostCases('PostgresStore', () => {
    const store = stores.make();
    const leaseMs = 4_000;
    return {
      flags: ['--postgres', POSTGRES_URL, '--schema', store.schema],
      store,
      leaseMs,
      async renewedAt(runId) {
        const { rows } = await admin.query(
          `SELECT renewed_at FROM "${store.schema}".runs WHERE run_id = $1`,
          [runId],
        );
        return new Date(rows[0]?.renewed_at).getTime();
      },
      // By the database's clock, as the store decides.
      async lapsed(runId) {
        const { rows } = await admin.query(
          `SELECT renewed_at <= now() - make_interval(secs => $2) AS lapsed FROM "${store.schema}".runs WHERE run_id = $1`,
          [runId, leaseMs / 1000],
        );
        return rows[0]?.lapsed === true;
      },
      async setRunner(runId, runner, ago) {
        await admin.query(
          `UPDATE "${store.schema}".runs SET runner_pid = $2, runner_host = $3, runner_machine = $4,
             runner_token = NULL, renewed_at = now() - make_interval(secs => $5) WHERE run_id = $1`,
          [runId, runner.pid, runner.host, runner.machine, ago / 1000],
        );
      },
    };
  });
});
