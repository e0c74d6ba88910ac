import type { StopReason, TeamEvent } from '../events/team-event-map.js';
import type { ProcessIdentity } from './runner-identity.js';

/** What a store keeps of a run besides its log: whose run it is. */
export interface RunRecord {
  /** The run's id. */
  readonly runId: string;
  /** The team's name. */
  readonly team: string;
  /** The team's id when the run began; a run of another team of the same name never resumes. */
  readonly teamId: string;
  /** When it began (ISO 8601). */
  readonly startedAt: string;
  /** The process running it (the one that started or last resumed it), and when it last renewed its lease. */
  readonly runner?: ProcessIdentity & {
    /** When it last renewed its lease (ISO 8601). */
    readonly renewedAt?: string;
  };
}

/** A run as `store.listRuns` lists it: its record, and whether a live process runs it now. */
export interface RunListing extends RunRecord {
  /** Whether a live process runs it now. */
  readonly live: boolean;
}

/**
 * How a run stands: `running` while a live process runs it; `interrupted` when it did not end
 * and no live process runs it (its process died: `resume` continues it); else its stop reason.
 */
export type RunStatus = StopReason | 'running' | 'interrupted';

/** Stop reasons after which a run is over; after the others (aborted, failed) it can go on. */
const FINISHED: ReadonlySet<StopReason> = new Set([
  'completed',
  'no-tasks',
  'stalled',
  'turn-limit',
  'budget',
]);

/** How a run stands from its log alone: going (or cut off by a crash), or ended with a stop reason. */
export function runStatus(events: readonly TeamEvent[]): StopReason | 'running' {
  const last = events.findLast((event) => event.type === 'team:complete' || event.type === 'team:resumed');
  return last?.type === 'team:complete' ? last.data.stopReason : 'running';
}

export function canResume(events: readonly TeamEvent[]): boolean {
  const status = runStatus(events);
  return status === 'running' || !FINISHED.has(status);
}

/** How a run stands, from its log and whether a live process runs it. */
export function runStatusOf(events: readonly TeamEvent[], live: boolean): RunStatus {
  const status = runStatus(events);
  return status === 'running' && !live ? 'interrupted' : status;
}
