import { hostname } from 'node:os';
import type { Pool, PoolClient } from 'pg';
import type { TeamEvent } from '../../events/team-event-map.js';
import { isAlive } from '../file/lock-owner.js';
import { teamBusy } from '../live-runs.js';
import { type RunRecord, runStatus } from '../run-record.js';
import type { TeamInfo } from '../team-store.js';

// A run's row: whose run it is and which process runs it (pid and host), as the FileStore's
// run.json. Written inside the transaction that holds the team's row.

export async function readRun(client: PoolClient, s: string, runId: string): Promise<RunRecord | undefined> {
  const { rows } = await client.query<{
    team: string;
    team_id: string;
    started_at: string;
    runner_pid: number | null;
    runner_host: string | null;
  }>(`SELECT team, team_id, started_at, runner_pid, runner_host FROM ${s}.runs WHERE run_id = $1`, [runId]);
  const row = rows[0];
  if (!row) return undefined;
  const record = { runId, team: row.team, teamId: row.team_id, startedAt: row.started_at };
  return row.runner_pid === null || row.runner_host === null
    ? record
    : { ...record, runner: { pid: row.runner_pid, host: row.runner_host } };
}

/** Every run's record (or `runId`'s), newest first. */
export async function listRuns(pool: Pool, s: string, runId?: string): Promise<RunRecord[]> {
  const { rows } = await pool.query<{
    run_id: string;
    team: string;
    team_id: string;
    started_at: string;
    runner_pid: number | null;
    runner_host: string | null;
  }>(
    `SELECT run_id, team, team_id, started_at, runner_pid, runner_host FROM ${s}.runs
     WHERE $1::text IS NULL OR run_id = $1 ORDER BY started_at DESC`,
    [runId ?? null],
  );
  return rows.map((row) => ({
    runId: row.run_id,
    team: row.team,
    teamId: row.team_id,
    startedAt: row.started_at,
    ...(row.runner_pid === null || row.runner_host === null
      ? {}
      : { runner: { pid: row.runner_pid, host: row.runner_host } }),
  }));
}

/** Records a new run, run by this process. */
export async function insertRun(client: PoolClient, s: string, record: RunRecord): Promise<void> {
  await client.query(
    `INSERT INTO ${s}.runs (run_id, team, team_id, started_at, runner_pid, runner_host) VALUES ($1, $2, $3, $4, $5, $6)`,
    [record.runId, record.team, record.teamId, record.startedAt, process.pid, hostname()],
  );
}

/** This process runs the run now (a resume). */
export async function takeRun(client: PoolClient, s: string, runId: string): Promise<void> {
  await client.query(`UPDATE ${s}.runs SET runner_pid = $2, runner_host = $3 WHERE run_id = $1`, [
    runId,
    process.pid,
    hostname(),
  ]);
}

/** Clears the run's runner if it is this process, so another process may resume it at once. */
export async function clearRunner(pool: Pool, s: string, runId: string): Promise<void> {
  await pool.query(
    `UPDATE ${s}.runs SET runner_pid = NULL, runner_host = NULL WHERE run_id = $1 AND runner_pid = $2 AND runner_host = $3`,
    [runId, process.pid, hostname()],
  );
}

/**
 * The events that decide whether a run goes on (its last `team:complete` or `team:resumed`),
 * picked out by type in SQL; what they mean is decided by `runStatus`, as for every store.
 */
async function statusEvents(client: PoolClient, s: string, runId: string): Promise<TeamEvent[]> {
  const { rows } = await client.query<{ body: TeamEvent }>(
    `SELECT body FROM ${s}.events WHERE run_id = $1 AND body->>'type' IN ('team:complete', 'team:resumed')
     ORDER BY seq DESC LIMIT 1`,
    [runId],
  );
  return rows.map((row) => row.body);
}

/**
 * A team's run that another live process on this machine is running cannot be restarted,
 * resumed or re-rostered under it. (A runner that died, or left the run, leaves it to be
 * resumed; a runner on another machine cannot be seen to be alive, as for the FileStore.)
 */
export async function refuseIfRunElsewhere(client: PoolClient, s: string, info: TeamInfo): Promise<void> {
  if (!info.runId) return;
  const runner = (await readRun(client, s, info.runId))?.runner;
  if (!runner || runner.pid === process.pid || runner.host !== hostname() || !isAlive(runner.pid)) return;
  if (runStatus(await statusEvents(client, s, info.runId)) !== 'running') return;
  throw teamBusy(info.name, info.runId, runner.pid);
}
