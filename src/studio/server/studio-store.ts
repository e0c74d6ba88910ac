import * as fs from 'node:fs';
import type { TeamEvent } from '../../events/team-event-map.js';
import { FileLayout } from '../../store/file/file-layout.js';
import { readRunRecord } from '../../store/file/file-runs.js';
import { FileStore } from '../../store/file/file-store.js';
import { type RunRecord, runStatus } from '../../store/run-record.js';
import { checkRunId } from '../../store/team-info.js';
import type { TeamStore } from '../../store/team-store.js';

/** A run as `GET /api/runs` lists it. */
export interface RunSummary {
  readonly runId: string;
  readonly team: string;
  readonly startedAt: string;
  /** `running` while it goes (or was cut off), else its stop reason. */
  readonly status: string;
  readonly events: number;
  /** The process that runs it, if one does. */
  readonly runner: { readonly pid: number; readonly host: string } | null;
}

/**
 * The store the Studio reads and writes, and the catalogue of every run in it (a store
 * lists teams; only the Studio needs every run, also other processes' and old ones).
 * The command chooses the store as every command does (src/cli/store-choice.ts).
 */
export interface StudioStore {
  readonly store: TeamStore;
  /** Where it is, for the command's first line. */
  readonly label: string;
  /** Every run, newest first. */
  listRuns(): Promise<RunSummary[]>;
  /** One run's record, `undefined` when the store has no such run. */
  findRun(runId: string): Promise<RunRecord | undefined>;
}

/** The Studio's store: a FileStore folder, or a PostgresStore (opened by the command). */
export function studioStoreOf(store: TeamStore): StudioStore {
  if (store instanceof FileStore) return fileStudioStore(store);
  if (hasRunRecords(store)) return recordedStudioStore(store);
  throw new Error('The Studio reads a FileStore or a PostgresStore.');
}

/** A store that keeps a table of its runs (the PostgresStore). */
interface RecordedRuns extends TeamStore {
  readonly schema: string;
  runRecords(runId?: string): Promise<RunRecord[]>;
}

function hasRunRecords(store: TeamStore): store is RecordedRuns {
  return 'runRecords' in store && typeof store.runRecords === 'function';
}

function recordedStudioStore(store: RecordedRuns): StudioStore {
  return {
    store,
    label: `PostgreSQL, schema ${store.schema}`,
    findRun: async (runId) => (isRunId(runId) ? (await store.runRecords(runId))[0] : undefined),
    async listRuns() {
      return Promise.all((await store.runRecords()).map((record) => summaryOf(store, record)));
    },
  };
}

async function summaryOf(store: TeamStore, record: RunRecord): Promise<RunSummary> {
  // A run whose log is gone or cut is listed, as corrupt, rather than hiding the rest.
  const events: TeamEvent[] = await store.readEvents(record.runId).catch(() => []);
  return {
    runId: record.runId,
    team: record.team,
    startedAt: record.startedAt,
    status: runStatus(events),
    events: events.length,
    runner: record.runner ?? null,
  };
}

function isRunId(id: string): boolean {
  try {
    checkRunId(id);
    return true;
  } catch {
    return false;
  }
}

function fileStudioStore(store: FileStore): StudioStore {
  const layout = new FileLayout(store.root);
  const runsFolder = `${store.root}/runs`;
  const findRun = async (runId: string) => (isRunId(runId) ? readRunRecord(layout, runId) : undefined);
  return {
    store,
    label: store.root,
    findRun,
    async listRuns() {
      const ids = fs.existsSync(runsFolder) ? fs.readdirSync(runsFolder).filter(isRunId) : [];
      const runs: RunSummary[] = [];
      for (const id of ids) {
        const record = readRunRecord(layout, id);
        if (record) runs.push(await summaryOf(store, record));
      }
      return runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    },
  };
}
