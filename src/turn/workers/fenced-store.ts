import { isTeamError } from '../../errors/index.js';
import { staleTurn, type TurnFence } from '../../store/postgres/fences.js';
import type { PostgresStore } from '../../store/postgres/postgres-store.js';
import type { TeamRules, TeamStore } from '../../store/team-store.js';

/**
 * The store as one attempt at a turn on a worker sees it: every commit checks, in its own
 * transaction, that the attempt still holds its turn's fence, and so does every file write of
 * its tools (`holdTurn`). A refusal (`stale-turn`) also stops the attempt: nothing it does from
 * then on can count.
 */
export function fencedStore(store: PostgresStore, fence: TurnFence, onStale: () => void): TeamStore {
  return {
    createTeam: (name, setup) => store.createTeam(name, setup),
    getTeam: (name) => store.getTeam(name),
    listTeams: () => store.listTeams(),
    listRuns: (options) => store.listRuns(options),
    transact: <T>(name: string, fn: (rules: TeamRules) => T) =>
      store.transactWith(name, fn, { fence }).catch((error: unknown) => {
        if (isTeamError(error, 'stale-turn')) onStale();
        throw error;
      }),
    startRun: (name, options) => store.startRun(name, options),
    resumeRun: (name) => store.resumeRun(name),
    leaveRun: (name, runId) => store.leaveRun(name, runId),
    readEvents: (runId, options) => store.readEvents(runId, options),
    subscribe: (name, listener) => store.subscribe(name, listener),
    // The worker's store outlives its turns.
    close: async () => {},
    withOutageWatch: (watch, fn) => store.withOutageWatch(watch, fn),
    // The fence's lease renewed: the effect that follows lands within it (FENCE_LEASE_MS).
    holdTurn: async () => {
      if (await store.renewFence(fence)) return;
      onStale();
      throw staleTurn(fence);
    },
  };
}
