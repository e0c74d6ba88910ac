import type { TeamEvent } from '../../events/team-event-map.js';
import { teamBusy } from '../live-runs.js';
import { LEASE_MS } from '../run-lease.js';
import { type RunRecord, runStatus } from '../run-record.js';
import { isThisProcess, knownDead, thisProcess } from '../runner-identity.js';
import type { TeamInfo } from '../team-store.js';
import { readJson, writeFileAtomic } from './file-io.js';
import type { FileLayout } from './file-layout.js';
import type { LogReader } from './file-log-reader.js';
import { runRecordSchema } from './file-schemas.js';

// A run's record (`runs/{runId}/run.json`): whose run it is, which process runs it, and when
// that process last renewed its lease (see run-lease.ts). Written under the team's lock.

/** This process as a run's record names its runner, with its lease renewed now. */
export const runnerNow = () => ({ ...thisProcess(), renewedAt: new Date().toISOString() });

export function readRunRecord(layout: FileLayout, runId: string): RunRecord | undefined {
  return readJson(layout.runRecord(runId), runRecordSchema);
}

export function writeRunRecord(layout: FileLayout, record: RunRecord): void {
  layout.confine(layout.runFolder(record.runId));
  writeFileAtomic(layout.runRecord(record.runId), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Whether a live process runs the run: its lease was renewed within `LEASE_MS.file` by this
 * clock, wherever it runs, unless it is known dead (a process of this machine that is gone:
 * then at once, see runner-identity.ts).
 */
export function runnerLive(runner: RunRecord['runner']): boolean {
  if (!runner || knownDead(runner)) return false;
  const renewed = runner.renewedAt === undefined ? Number.NaN : Date.parse(runner.renewedAt);
  return Number.isFinite(renewed) && Date.now() - renewed < LEASE_MS.file;
}

/** Renews this process's lease on the run; false once the record names another runner (or none). */
export function renewLease(layout: FileLayout, runId: string): boolean {
  const record = readRunRecord(layout, runId);
  if (!record || !isThisProcess(record.runner)) return false;
  writeRunRecord(layout, { ...record, runner: runnerNow() });
  return true;
}

/**
 * A team's run that another live process is running — one whose lease holds, on any machine —
 * cannot be restarted, resumed or re-rostered under it: its tasks would change under its feet.
 * (A runner that left the run, whose lease ran out, or that is known dead, leaves it to be resumed.)
 */
export function refuseIfRunElsewhere(layout: FileLayout, log: LogReader, info: TeamInfo): void {
  if (!info.runId) return;
  const runner = readRunRecord(layout, info.runId)?.runner;
  if (!runner || isThisProcess(runner) || !runnerLive(runner)) return;
  const events: TeamEvent[] = log.read(layout.events(info.runId));
  if (runStatus(events) !== 'running') return;
  throw teamBusy(info.name, info.runId, runner.pid, runner.host);
}

/** Clears the runner of a run if it is this process, so another process may resume it at once. */
export function clearRunner(layout: FileLayout, runId: string): void {
  const record = readRunRecord(layout, runId);
  if (!record || !isThisProcess(record.runner)) return;
  const { runner: _left, ...rest } = record;
  writeRunRecord(layout, rest);
}
