// PostgresStore throughput: claim+complete per second and ms per operation at 10, 100 and
// 1000 tasks (part `board`), N processes contending on one team (`contention`), and 64 teams on
// 8 processes against the bare own-row loop (`teams`). Each part runs on a schema of its own,
// dropped after. Run: npm run bench:postgres   (AGENT_TEAMS_POSTGRES_URL picks the server;
// default postgres://postgres@127.0.0.1:5432/test; BENCH_PARTS=teams,… runs only those parts).
// Prints Markdown for docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import pg from 'pg';
import { PostgresStore } from '../src/postgres.js';
import { measure } from './board-work.js';
import { bareLoop, race } from './postgres-race.js';
import { median } from './turn-cost.js';

const url = process.env.AGENT_TEAMS_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const parts = new Set((process.env.BENCH_PARTS || 'board,contention,teams').split(','));
const schemas: string[] = [];
const newSchema = () => {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
};

const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
console.log(
  `node ${process.version}, PostgreSQL ${rows[0]?.server_version} on loopback, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}\n`,
);
try {
  if (parts.has('board')) await board();
  if (parts.has('contention')) await contention();
  if (parts.has('teams')) await manyTeams();
} finally {
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

async function board() {
  console.log(
    '| store | synchronousCommit | tasks | claim+complete per s | ms per operation | vs 10 tasks |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: |');
  for (const synchronousCommit of [true, false]) {
    const store = new PostgresStore({ connectionString: url, schema: newSchema(), synchronousCommit });
    let base = 0;
    for (const size of [10, 100, 1000]) {
      const ms = await measure(store, size, synchronousCommit ? 1000 : 3000);
      base ||= ms;
      console.log(
        `| PostgresStore | ${synchronousCommit} | ${size} | ${(1000 / (2 * ms)).toFixed(0)} | ${ms.toFixed(4)} | ${(ms / base).toFixed(2)}x |`,
      );
    }
    await store.close();
  }
}

async function contention() {
  console.log(
    '\n| processes on one PostgresStore team (1000 tasks) | synchronousCommit | claims per s (each with its completion) | transactions per s | double claims | tasks not completed exactly once by their claimer | claims per process |',
  );
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | --- |');
  for (const [processes, synchronousCommit] of [
    [1, true],
    [8, true],
    [1, false],
    [2, false],
    [8, false],
  ] as const) {
    const result = await race(url, { processes, tasks: 1000, synchronousCommit });
    console.log(
      `| ${processes} | ${synchronousCommit} | ${result.claimsPerSecond.toFixed(0)} | ${result.transactionsPerSecond.toFixed(0)} | ${result.doubleClaims} | ${result.unfinished} | ${result.perProcess.join(', ')} |`,
    );
  }
}

async function manyTeams() {
  // 64 teams, 8 each on 8 processes (16 connections in all), beside the bare loop on as many
  // sessions, each transaction on a row of its own (a team's): interleaved, twice.
  const bare: number[] = [await bareLoop(url, { sessions: 16, rows: 64, ms: 3000 })];
  const store: number[] = [];
  for (let round = 0; round < 2; round++) {
    const result = await race(url, { processes: 8, teams: 64, tasks: 50 });
    if (result.doubleClaims + result.unfinished > 0) throw new Error(`64 teams: ${JSON.stringify(result)}`);
    store.push(result.transactionsPerSecond);
    bare.push(await bareLoop(url, { sessions: 16, rows: 64, ms: 3000 }));
  }
  console.log('\n| 64 teams, 8 processes (16 connections) | transactions per s |');
  console.log('| --- | ---: |');
  console.log(
    `| bare loop: lock a team's own row, update it, NOTIFY, commit (16 sessions; median of ${bare.length}) | ${median(bare).toFixed(0)} |`,
  );
  console.log(
    `| PostgresStore: claim, then complete, 50 tasks a team (median of ${store.length}) | ${median(store).toFixed(0)} |`,
  );
  console.log(`| share of the bare loop | ${(median(store) / median(bare)).toFixed(2)} |`);
}
