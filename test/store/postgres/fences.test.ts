import { isTeamError } from 'agent-teams';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { POSTGRES_URL, postgresReachable, postgresStores } from './database.js';

// Fencing of turns on workers: only the attempt that holds its agent's fence may write.
const reachable = await postgresReachable();
const stores = postgresStores();

/** Makes every lease of the run's fences run out, as a dead worker's does. */
async function lapse(schema: string, runId: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(
      `UPDATE "${schema}".turn_fences SET lease_until = now() - interval '1 second' WHERE run_id = $1`,
      [runId],
    );
  } finally {
    await client.end();
  }
}

describe.skipIf(!reachable)('turn fences', () => {
  test('a later attempt fences out the earlier one; a resume fences out every attempt', async () => {
    const store = stores.make();
    await store.createTeam('t', { lead: 'lead', members: ['a'] });
    const { runId } = await store.startRun('t');
    if (!runId) throw new Error('no run');
    const create = (title: string) => store.transact('t', ({ board }) => board.createTask({ title }, 'lead'));
    await create('Draft');
    // The turn's start sets the fence, in the transaction that claims the task.
    await store.transactWith('t', ({ board }) => board.claimTask('a', 'task-1'), {
      alongside: (tx) => tx.setFence(runId, 'a', 1),
    });
    const turn = { runId, agent: 'a', turn: 1 };
    const first = await store.takeFence('t', turn);
    expect(first).toEqual({ ...turn, attempt: 1 });
    if (!first) throw new Error('no fence');
    // While the first attempt holds its lease, no other attempt takes the turn.
    expect(await store.takeFence('t', turn)).toBeUndefined();
    expect(await store.renewFence(first)).toBe(true);
    const note = (fence: typeof first, text: string) =>
      store.transactWith('t', ({ board }) => board.updateTask('task-1', { note: text }, 'a'), { fence });
    await note(first, 'from the first attempt');
    // Its worker died: the lease runs out, the run's process frees the fence, the next attempt takes it.
    await lapse(stores.schemas.at(-1) as string, runId);
    const freed = await store.transactWith('t', () => undefined, {
      alongside: (tx) => tx.freeLapsed(runId).then(() => undefined),
    });
    expect(freed).toBeUndefined();
    const second = await store.takeFence('t', turn);
    expect(second).toEqual({ ...turn, attempt: 2 });
    if (!second) throw new Error('no fence');
    expect(await store.renewFence(first)).toBe(false);
    const refused = await note(first, 'late').catch((error: unknown) => error);
    expect(isTeamError(refused, 'stale-turn')).toBe(true);
    await note(second, 'from the retry');
    const task = await store.transact('t', ({ board }) => board.getTask('task-1'));
    expect(task?.note).toBe('from the retry');
    // The run's process died and the run is resumed: no attempt of its past writes again.
    await store.leaveRun('t', runId);
    expect(await store.resumeRun('t')).toBeDefined();
    const afterResume = await note(second, 'after the resume').catch((error: unknown) => error);
    expect(isTeamError(afterResume, 'stale-turn')).toBe(true);
  });
});
