import { setTimeout as sleep } from 'node:timers/promises';
import type { TeamEvent } from 'agent-teams';
import type { ScriptedCall, ScriptedReply } from 'agent-teams/testing';
import { describe, expect, test } from 'vitest';
import { mulberry32 } from '../../helpers/chaos-store.js';
import { CONCURRENT_TIMEOUT_MS, seeds } from '../../helpers/seeds.js';
import { testTeam } from '../../helpers/team.js';
import { postgresReachable, postgresStores } from './database.js';
import { terminateBackends } from './database-faults.js';

// The database terminates the store's sessions (a failover, a restarted pooler, an
// idle-connection reaper would) at seeded points of a run in this process: the run goes on
// and completes without a resume, each task done once. The seeds run concurrently, each on
// its own schema (see chaos-file.test.ts for why, and for the bound of each).
const reachable = await postgresReachable();
const stores = postgresStores();

/** The lead plans two layers of three tasks; each member completes its task with the tool, then says so. */
export function sixTasks(call: ScriptedCall): ScriptedReply {
  if (call.agent === 'lead') {
    if (call.reason === 'start' && call.step === 0) {
      const first = ['Gather A', 'Gather B', 'Gather C'].map((title) => ({ title }));
      const second = ['Write A', 'Write B', 'Write C'].map((title, i) => ({
        title,
        dependsOn: [`task-${i + 1}`],
      }));
      return { toolCalls: [...first, ...second].map((input) => ({ toolName: 'create_task', input })) };
    }
    return call.reason === 'synthesis' ? 'All six done.' : 'Planned.';
  }
  if (!call.taskId || call.step > 0) return 'Done.';
  const result = `${call.taskId} done by ${call.agent}`;
  return {
    toolCalls: [{ toolName: 'update_task', input: { taskId: call.taskId, status: 'completed', result } }],
  };
}

/** The run completed, without a resume, and each of the six tasks was worked on in one turn and completed once. */
export function expectSixDoneOnce(log: readonly TeamEvent[]): void {
  const ids = ['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6'];
  const completed = log.flatMap((event) =>
    event.type === 'team:task-completed' ? [event.data.task.id] : [],
  );
  expect(completed.sort()).toEqual(ids);
  const turns = log.flatMap((event) =>
    event.type === 'team:member-started' && event.data.taskId ? [event.data.taskId] : [],
  );
  expect(turns.sort()).toEqual(ids);
  expect(log.filter((event) => event.type === 'team:resumed')).toEqual([]);
  const end = log.at(-1);
  expect(end?.type === 'team:complete' && end.data.stopReason).toBe('completed');
}

/** Three points of a run, by the count of events it has emitted, and a delay after each: drawn by seed. */
export function resetPoints(seed: number, within: number) {
  const random = mulberry32(seed);
  return Array.from({ length: 3 }, () => ({
    after: 1 + Math.floor(random() * within),
    delayMs: Math.floor(random() * 20),
  }));
}

describe.skipIf(!reachable)('connection resets at seeded points, in process', () => {
  test.concurrent.each(seeds(20, 'KILL_SEEDS'))(
    'the run completes without a resume, each task done once (seed %i)',
    async (seed) => {
      const store = stores.make();
      const points = resetPoints(seed, 60);
      const { team } = testTeam(sixTasks, { store, latencyMs: 20, maxConcurrentMembers: 3 });
      const resets: Promise<number>[] = [];
      let emitted = 0;
      team.on('*', () => {
        emitted++;
        for (const point of points)
          if (point.after === emitted)
            resets.push(sleep(point.delayMs).then(() => terminateBackends(store.schema)));
      });
      const result = await team.run({ input: 'Do the six' });
      const terminated = (await Promise.all(resets)).reduce((sum, count) => sum + count, 0);
      // The seed cut sessions of the store: the run met the fault it is here for.
      expect(terminated).toBeGreaterThan(0);
      expect(result.teamResult.stopReason).toBe('completed');
      expect(result.output).toBe('All six done.');
      expectSixDoneOnce(await store.readEvents((await store.getTeam('t'))?.runId as string));
      await store.close();
    },
    CONCURRENT_TIMEOUT_MS,
  );
});
