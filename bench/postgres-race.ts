// The PostgreSQL races of bench/postgres.ts and bench/postgres-statements.ts, and the bare
// loops they are measured against, in one place: N processes (bench/postgres-worker.ts) on one
// team's board or on many teams, and the same server's limit for the same shape of commits.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { PostgresStore } from '../src/postgres.js';
import { seed } from './board-work.js';

const worker = fileURLToPath(new URL('./postgres-worker.ts', import.meta.url));

export interface RaceResult {
  claimsPerSecond: number;
  transactionsPerSecond: number;
  doubleClaims: number;
  /** Tasks not completed exactly once, by their claimer. */
  unfinished: number;
  perProcess: number[];
}

/**
 * `processes` processes, each a store with a pool of 2, start at one moment and claim and
 * complete tasks until none is left: all on one team of `tasks` tasks (`teams` 1), or each on
 * `teams / processes` teams of its own, of `tasks` tasks each.
 */
export async function race(
  url: string,
  {
    processes,
    teams = 1,
    tasks,
    synchronousCommit = true,
  }: {
    processes: number;
    teams?: number;
    tasks: number;
    synchronousCommit?: boolean;
  },
): Promise<RaceResult> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const store = new PostgresStore({ connectionString: url, schema, poolSize: 2 });
  try {
    const members = Array.from({ length: processes }, (_, index) => `w${index + 1}`);
    const names = Array.from({ length: teams }, (_, index) => `race-${index + 1}`);
    for (const name of names) {
      await store.createTeam(name, { lead: 'lead', members, maxTasks: tasks });
      await seed(store, name, tasks);
    }
    // One team: every process races on it; many: each process has its own share of them.
    const teamsOf = (index: number) =>
      teams === 1 ? names : names.filter((_, team) => team % processes === index);
    const startAt = Date.now() + 3000;
    const outputs = await Promise.all(
      members.map((member, index) =>
        promisify(execFile)(process.execPath, [
          '--import',
          'tsx',
          worker,
          url,
          schema,
          teamsOf(index).join(','),
          member,
          String(startAt),
          String(synchronousCommit),
        ]),
      ),
    );
    const results = outputs.map(
      (output) => JSON.parse(output.stdout) as { claimed: string[]; finishedAt: number },
    );
    const claimed = results.flatMap((result) => result.claimed);
    const seconds = (Math.max(...results.map((result) => result.finishedAt)) - startAt) / 1000;
    let unfinished = teams * tasks - new Set(claimed).size;
    for (const name of names) {
      const final = await store.transact(name, ({ board }) => board.listTasks());
      unfinished += final.filter((task) => task.status !== 'completed' || task.result !== task.owner).length;
    }
    return {
      claimsPerSecond: claimed.length / seconds,
      // Each claim and completion, and the last claim on each team of each process (none left).
      transactionsPerSecond: (claimed.length * 2 + (teams === 1 ? processes : teams)) / seconds,
      doubleClaims: claimed.length - new Set(claimed).size,
      unfinished,
      perProcess: results.map((result) => result.claimed.length),
    };
  } finally {
    await store.close();
    await dropSchema(url, schema);
  }
}

/**
 * The server's limit for the race's commits: `sessions` sessions of this process commit for
 * `ms`, each transaction locking a row (`rows` 1: one shared row; else `rows` rows, each
 * session's own share of them in turn), updating it and sending a NOTIFY, in two round trips
 * (as the store's locked commit); answers transactions per second.
 */
export async function bareLoop(
  url: string,
  { sessions, rows = 1, ms }: { sessions: number; rows?: number; ms: number },
): Promise<number> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    `CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id int PRIMARY KEY, n bigint);
     INSERT INTO ${schema}.t SELECT generate_series(1, ${rows}), 0`,
  );
  await admin.end();
  const clients = await Promise.all(
    Array.from({ length: sessions }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let done = 0;
  const end = performance.now() + ms;
  try {
    await Promise.all(
      clients.map(async (client, index) => {
        const own =
          rows === 1
            ? [1]
            : Array.from({ length: rows }, (_, row) => row + 1).filter(
                (row) => row % sessions === index % sessions,
              );
        for (let turn = 0; performance.now() < end; turn++) {
          const id = own[turn % own.length];
          await client.query(`BEGIN; SELECT n FROM ${schema}.t WHERE id = ${id} FOR UPDATE`);
          await client.query(
            `UPDATE ${schema}.t SET n = n + 1 WHERE id = ${id}; SELECT pg_notify('bench_${schema}', 'x'); COMMIT`,
          );
          done++;
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.end()));
    await dropSchema(url, schema);
  }
  return done / (ms / 1000);
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
