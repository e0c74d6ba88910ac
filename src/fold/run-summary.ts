import type { TeamEvent } from '../events/team-event-map.js';
import { type RunListing, type RunStatus, runStatusOf } from '../store/run-record.js';
import { foldEvents } from './apply-event.js';

/** A run in one line: `agent-teams runs` and the Studio's `GET /api/runs` list these. */
export interface RunSummary {
  readonly runId: string;
  readonly team: string;
  readonly startedAt: string;
  /** `running`, `interrupted` (its process died: resume continues it), or how it ended. */
  readonly status: RunStatus;
  /** From its first event to its last (to now while it runs), in ms. */
  readonly durationMs: number;
  readonly totalTokens: number;
  /** In USD; `null` when a model of the run has no price. */
  readonly costUsd: number | null;
  readonly events: number;
  /** The process that runs it (or ran it last, when it was interrupted), if one. */
  readonly runner: { readonly pid: number; readonly host: string } | null;
}

/** A run's summary from its store listing and its log, by the runtime's own fold. */
export function summarizeRun(
  listing: RunListing,
  events: readonly TeamEvent[],
  now = Date.now(),
): RunSummary {
  const state = foldEvents(events);
  const status = runStatusOf(events, listing.live);
  const first = Date.parse(events[0]?.timestamp ?? listing.startedAt);
  const last = status === 'running' ? now : Date.parse(events.at(-1)?.timestamp ?? listing.startedAt);
  const runner = listing.runner ? { pid: listing.runner.pid, host: listing.runner.host } : null;
  return {
    runId: listing.runId,
    team: listing.team,
    startedAt: listing.startedAt,
    status,
    durationMs: Math.max(0, last - first),
    totalTokens: state.usage.totalTokens,
    costUsd: state.usage.cost ?? null,
    events: events.length,
    runner,
  };
}
