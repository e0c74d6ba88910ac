// One process of the contention benchmark: waits for the common start time, then claims
// and completes tasks until none is left. Prints { claimed, finishedAt } as JSON.
import { FileStore } from '../src/index.js';

const [root, team, member, startAt] = process.argv.slice(2) as [string, string, string, string];
const store = new FileStore({ root });
await store.getTeam(team); // load the modules before the clock starts
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
process.stdout.write(JSON.stringify({ claimed, finishedAt: Date.now() }));
