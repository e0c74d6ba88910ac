// One process of the PostgreSQL races (bench/postgres-race.ts): see `race`. With several teams
// (comma-separated) it works on all of them at once, as `member`, each claim followed by its
// completion, and prints { claimed, finishedAt } for all of them together.
import { PostgresStore } from '../src/postgres.js';
import { race } from './board-work.js';

const [connectionString, schema, teams, member, startAt, synchronous] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const synchronousCommit = synchronous !== 'false';
const store = new PostgresStore({ connectionString, schema, poolSize: 2, synchronousCommit });
const names = teams.split(',');
if (names.length === 1) await race(store, teams, member, Number(startAt));
else {
  for (const name of names) await store.getTeam(name); // connected before the clock starts
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
  const claimed: string[] = [];
  await Promise.all(
    names.map(async (name) => {
      for (;;) {
        const task = await store.transact(name, ({ board }) => board.claimTask(member));
        if (!task) return;
        claimed.push(`${name}/${task.id}`);
        await store.transact(name, ({ board }) =>
          board.updateTask(task.id, { status: 'completed', result: member }, member),
        );
      }
    }),
  );
  await store.close();
  process.stdout.write(JSON.stringify({ claimed, finishedAt: Date.now() }));
}
