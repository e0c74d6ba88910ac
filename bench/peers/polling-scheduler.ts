import { setTimeout as sleep } from 'node:timers/promises';
import type { TeamStore } from '../../src/index.js';

/**
 * How a polling peer schedules (langgraph-agent-teams' teammates, with `poll_interval`):
 * each member loops on claim, work, complete, and sleeps the interval whenever nothing is
 * claimable. Same rules and store as agent-teams; only the scheduling differs.
 */
export async function pollingRun(
  store: TeamStore,
  team: string,
  members: readonly string[],
  work: (member: string, taskId: string) => Promise<string>,
  intervalMs: number,
): Promise<void> {
  const done = async () =>
    store.transact(team, ({ board }) => board.listTasks().every((task) => task.status === 'completed'));
  await Promise.all(
    members.map(async (member) => {
      while (!(await done())) {
        const task = await store.transact(team, ({ board }) => board.claimTask(member));
        if (!task) {
          await sleep(intervalMs);
          continue;
        }
        const result = await work(member, task.id);
        await store.transact(team, ({ board }) =>
          board.updateTask(task.id, { status: 'completed', result }, member),
        );
      }
    }),
  );
}
