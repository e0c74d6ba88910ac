// PostgresStore throughput: claim+complete per second and ms per operation at 10, 100 and
// 1000 tasks, and N processes contending on one team. Each part runs on a schema of its own,
// dropped after. Run: npm run bench:postgres   (AGENT_TEAMS_POSTGRES_URL picks the server;
// default postgres://postgres@127.0.0.1:5432/test). Prints Markdown for docs/benchmarks.md.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { PostgresStore } from '../src/postgres.js';
import { measure, seed } from './board-work.js';

const run = promisify(execFile);
const url = process.env.AGENT_TEAMS_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
const newSchema = () => {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
};

async function contention(processes: number, tasks: number, synchronousCommit: boolean) {
  const schema = newSchema();
  const store = new PostgresStore({ connectionString: url, schema });
  const workers = Array.from({ length: processes }, (_, index) => `w${index + 1}`);
  await store.createTeam('race', { lead: 'lead', members: workers, maxTasks: tasks });
  await seed(store, 'race', tasks);
  const worker = fileURLToPath(new URL('./postgres-worker.ts', import.meta.url));
  const startAt = Date.now() + 3000;
  const outputs = await Promise.all(
    workers.map((member) =>
      run(process.execPath, [
        '--import',
        'tsx',
        worker,
        url,
        schema,
        'race',
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
  const final = await store.transact('race', ({ board }) => board.listTasks());
  const wrongOwner = final.filter((task) => task.status !== 'completed' || task.result !== task.owner).length;
  await store.close();
  return {
    claimsPerSecond: claimed.length / seconds,
    transactionsPerSecond: (claimed.length * 2 + processes) / seconds,
    doubleClaims: claimed.length - new Set(claimed).size,
    unfinished: tasks - new Set(claimed).size + wrongOwner,
    perProcess: results.map((result) => result.claimed.length),
  };
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
console.log(
  `node ${process.version}, PostgreSQL ${rows[0]?.server_version} on loopback, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}\n`,
);
try {
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
    const result = await contention(processes, 1000, synchronousCommit);
    console.log(
      `| ${processes} | ${synchronousCommit} | ${result.claimsPerSecond.toFixed(0)} | ${result.transactionsPerSecond.toFixed(0)} | ${result.doubleClaims} | ${result.unfinished} | ${result.perProcess.join(', ')} |`,
    );
  }
} finally {
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
