import type { TeamStore } from '../src/index.js';

// The task board benchmark's work, for every store (bench/board.ts, bench/postgres.ts) and
// for each process of their contention parts (contention-worker.ts, postgres-worker.ts).

const members = ['m1', 'm2', 'm3'];

/** Fills a fresh run of `team` with `size` independent tasks (leaving its previous run first). */
export async function seed(store: TeamStore, team: string, size: number): Promise<void> {
  const previous = (await store.getTeam(team))?.runId;
  if (previous) await store.leaveRun(team, previous);
  await store.startRun(team);
  await store.transact(team, ({ board }) => {
    for (let index = 0; index < size; index++) board.createTask({ title: `Task ${index}` }, 'lead');
  });
}

/** Claims and completes every task, one transaction each; answers the operations done. */
async function drain(store: TeamStore, team: string): Promise<number> {
  let operations = 0;
  for (let turn = 0; ; turn++) {
    const member = members[turn % members.length] as string;
    const task = await store.transact(team, ({ board }) => board.claimTask(member));
    operations++;
    if (!task) return operations;
    await store.transact(team, ({ board }) =>
      board.updateTask(task.id, { status: 'completed', result: 'done' }, member),
    );
    operations++;
  }
}

/** ms per operation over at least `minimum` operations, after one warm-up round. */
export async function measure(store: TeamStore, size: number, minimum: number): Promise<number> {
  const team = `bench-${size}`;
  await store.createTeam(team, { lead: 'lead', members, maxTasks: size });
  await seed(store, team, size);
  await drain(store, team);
  let operations = 0;
  let elapsed = 0;
  while (operations < minimum) {
    await seed(store, team, size);
    const start = performance.now();
    operations += await drain(store, team);
    elapsed += performance.now() - start;
  }
  return elapsed / operations;
}

/**
 * One contending process: waits for the common start time, then claims and completes tasks
 * as `member` until none is left, on each of `teams` at once. Prints { claimed, finishedAt }
 * as JSON: task ids, named `team/id` when there are several teams.
 */
export async function race(
  store: TeamStore,
  teams: readonly string[],
  member: string,
  startAt: number,
): Promise<void> {
  for (const team of teams) await store.getTeam(team); // connect and load the modules before the clock starts
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const claimed: string[] = [];
  await Promise.all(
    teams.map(async (team) => {
      for (;;) {
        const task = await store.transact(team, ({ board }) => board.claimTask(member));
        if (!task) return;
        claimed.push(teams.length > 1 ? `${team}/${task.id}` : task.id);
        await store.transact(team, ({ board }) =>
          board.updateTask(task.id, { status: 'completed', result: member }, member),
        );
      }
    }),
  );
  await store.close();
  process.stdout.write(JSON.stringify({ claimed, finishedAt: Date.now() }));
}
