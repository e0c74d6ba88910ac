import type { TeamEvent } from '../events/team-event-map.js';
import { applyEvent } from '../fold/apply-event.js';
import { emptyRunState } from '../fold/run-state.js';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { storeWakeups } from './wakeups.js';

/**
 * A run's events from its store's log, in order: those logged so far, and with `follow` each
 * new one as it is committed (by any process) until the run ends, or `signal` aborts. A run
 * whose process died while it was followed is a `CliError` saying how to resume it, once
 * what that process committed before it died has been given.
 */
export async function* followRun(
  store: TeamStore,
  team: string,
  runId: string,
  options: { follow: boolean; signal: AbortSignal },
): AsyncGenerator<TeamEvent, void, undefined> {
  const run = emptyRunState();
  const wakeups = options.follow ? storeWakeups(store, team, options.signal) : undefined;
  try {
    for (;;) {
      for (const event of await store.readEvents(runId, { afterSeq: run.seq })) {
        applyEvent(run, event);
        yield event;
      }
      if (!options.follow || run.stopReason !== null || options.signal.aborted) return;
      const gone = await goneRunner(store, runId);
      // One more read after the runner is seen gone: what it committed before it died is given.
      if (gone && (await store.readEvents(runId, { afterSeq: run.seq })).length === 0) {
        throw new CliError(
          `${gone}: the run ${runId} did not finish; continue it with agent-teams resume <file> (it picks up where it stopped)`,
        );
      }
      await wakeups?.next();
    }
  } finally {
    wakeups?.stop();
  }
}

/** Why nobody will add to the run's log any more, or `undefined` while a live process runs it. */
async function goneRunner(store: TeamStore, runId: string): Promise<string | undefined> {
  const [listing] = await store.listRuns({ runId });
  if (!listing || listing.live) return undefined;
  return listing.runner ? `its process ${listing.runner.pid} is gone` : 'no process runs it any more';
}
