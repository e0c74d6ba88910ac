// One process of the PostgreSQL contention benchmark: waits for the common start time, then
// claims and completes tasks until none is left. Prints { claimed, finishedAt } as JSON.
import { PostgresStore } from '../src/store/postgres/index.js';

const [connectionString, schema, team, member, startAt, synchronous] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const synchronousCommit = synchronous !== 'false';
const store = new PostgresStore({ connectionString, schema, poolSize: 2, synchronousCommit });
await store.getTeam(team); // connect and load the modules before the clock starts
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const claimed: string[] = [];
for (;;) {
  const task = await store.transact(team, ({ board }) => board.claimTask(member));
  if (!task) break;
  claimed.push(task.id);
  await store.transact(team, ({ board }) =>
    board.updateTask(task.id, { status: 'completed', result: member }, member),
  );
}
await store.close();
process.stdout.write(JSON.stringify({ claimed, finishedAt: Date.now() }));
