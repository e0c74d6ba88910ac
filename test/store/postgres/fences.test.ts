import { isTeamError } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { postgresReachable, postgresStores } from './database.js';

// Fencing of turns on workers: only the attempt that holds its agent's fence may write.
const reachable = await postgresReachable();
const stores = postgresStores();

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
    const first = { runId, agent: 'a', turn: 1, attempt: 0 };
    const second = { ...first, attempt: 1 };
    expect(await store.takeFence('t', first)).toBe(true);
    const note = (fence: typeof first, text: string) =>
      store.transactWith('t', ({ board }) => board.updateTask('task-1', { note: text }, 'a'), { fence });
    await note(first, 'from the first attempt');
    // pg-boss retried the turn (the first worker's lease ran out): the retry takes the fence.
    expect(await store.takeFence('t', second)).toBe(true);
    expect(await store.takeFence('t', first)).toBe(false);
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
