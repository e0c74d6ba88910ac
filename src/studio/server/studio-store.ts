import { type RunSummary, summarizeRun } from '../../fold/run-summary.js';
import type { RunListing } from '../../store/run-record.js';
import { isRunId } from '../../store/team-info.js';
import type { TeamStore } from '../../store/team-store.js';

export type { RunSummary };

/**
 * The store the Studio reads and writes, and the catalogue of every run in it: each run's
 * summary, from the store's listing (whether a live process runs it) and its log. The command
 * chooses the store as every command does (src/cli/store-choice.ts).
 */
export interface StudioStore {
  readonly store: TeamStore;
  /** Where it is, for the command's first line. */
  readonly label: string;
  /** Every run, newest first. */
  listRuns(): Promise<RunSummary[]>;
  /** One run's listing, `undefined` when the store has no such run. */
  findRun(runId: string): Promise<RunListing | undefined>;
  /** One run's summary, as `listRuns` has it; `undefined` when the store has no such run. */
  summaryOf(runId: string): Promise<RunSummary | undefined>;
}

/** Where a store keeps its teams, as a person reads it. */
function labelOf(store: TeamStore): string {
  const located = store as { readonly root?: unknown; readonly schema?: unknown };
  if (typeof located.root === 'string') return located.root;
  if (typeof located.schema === 'string') return `PostgreSQL, schema ${located.schema}`;
  return 'memory';
}

export function studioStoreOf(store: TeamStore): StudioStore {
  // A run whose log is gone or cut is listed, with nothing folded, rather than hiding the rest.
  const summary = async (listing: RunListing) =>
    summarizeRun(listing, await store.readEvents(listing.runId).catch(() => []));
  const findRun = async (runId: string) =>
    isRunId(runId) ? (await store.listRuns({ runId }))[0] : undefined;
  return {
    store,
    label: labelOf(store),
    findRun,
    async summaryOf(runId) {
      const listing = await findRun(runId);
      return listing && summary(listing);
    },
    async listRuns() {
      const summaries: RunSummary[] = [];
      for (const listing of await store.listRuns()) summaries.push(await summary(listing));
      return summaries;
    },
  };
}
