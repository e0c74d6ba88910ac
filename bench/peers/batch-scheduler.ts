import type { TeamStore } from '../../src/index.js';

/**
 * How a round-based peer schedules: each round every member claims one task if it can, the
 * round's turns run together, and the next round starts when the whole batch is done. Same
 * rules and store as agent-teams; only the scheduling differs.
 */
export async function batchRun(
  store: TeamStore,
  team: string,
  members: readonly string[],
  work: (member: string, taskId: string) => Promise<string>,
): Promise<void> {
  for (;;) {
    const batch = await store.transact(team, ({ board }) =>
      members.flatMap((member) => {
        const task = board.claimTask(member);
        return task ? [{ member, id: task.id }] : [];
      }),
    );
    if (batch.length === 0) return;
    await Promise.all(
      batch.map(async ({ member, id }) => {
        const result = await work(member, id);
        await store.transact(team, ({ board }) =>
          board.updateTask(id, { status: 'completed', result }, member),
        );
      }),
    );
  }
}
