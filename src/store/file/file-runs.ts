import { hostname } from 'node:os';
import type { TeamEvent } from '../../events/team-event-map.js';
import { teamBusy } from '../live-runs.js';
import { type RunRecord, runStatus } from '../run-record.js';
import type { TeamInfo } from '../team-store.js';
import { readJson, writeFileAtomic } from './file-io.js';
import type { FileLayout } from './file-layout.js';
import type { LogReader } from './file-log-reader.js';
import { runRecordSchema } from './file-schemas.js';
import { isAlive } from './lock-owner.js';

// A run's record (`runs/{runId}/run.json`): whose run it is and which process runs it.
// Written under the team's lock.

/** Who this process is, as a run's record names its runner. */
export const thisProcess = () => ({ pid: process.pid, host: hostname() });

export function readRunRecord(layout: FileLayout, runId: string): RunRecord | undefined {
  return readJson(layout.runRecord(runId), runRecordSchema);
}

export function writeRunRecord(layout: FileLayout, record: RunRecord): void {
  writeFileAtomic(layout.runRecord(record.runId), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * A team's run that another live process on this machine is running cannot be restarted,
 * resumed or re-rostered under it: its tasks would change under its feet. (A runner that
 * died — a crash, `kill -9` — or left the run leaves it to be resumed.)
 */
export function refuseIfRunElsewhere(layout: FileLayout, log: LogReader, info: TeamInfo): void {
  if (!info.runId) return;
  const runner = readRunRecord(layout, info.runId)?.runner;
  if (!runner || runner.pid === process.pid || runner.host !== hostname() || !isAlive(runner.pid)) return;
  const events: TeamEvent[] = log.read(layout.events(info.runId));
  if (runStatus(events) !== 'running') return;
  throw teamBusy(info.name, info.runId, runner.pid);
}

/** Clears the runner of a run if it is this process, so another process may resume it at once. */
export function clearRunner(layout: FileLayout, runId: string): void {
  const record = readRunRecord(layout, runId);
  const runner = record?.runner;
  if (!record || !runner || runner.pid !== process.pid || runner.host !== hostname()) return;
  const { runner: _left, ...rest } = record;
  writeRunRecord(layout, rest);
}
