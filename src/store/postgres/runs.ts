import type { Pool, PoolClient } from 'pg';
import type { TeamEvent } from '../../events/team-event-map.js';
import { teamBusy } from '../live-runs.js';
import { LEASE_MS } from '../run-lease.js';
import { type RunListing, type RunRecord, runStatus } from '../run-record.js';
import { isThisProcess, knownDead, thisProcess } from '../runner-identity.js';
import type { TeamInfo } from '../team-store.js';

// A run's row: whose run it is, which process runs it (pid, host, machine and token: see
// runner-identity.ts) and when it last renewed its lease, as the FileStore's run.json. Written
// inside the transaction that holds the team's row.

/** Whether the row's runner holds its lease, by the database's clock (a SQL expression). */
const LIVE = `(runner_pid IS NOT NULL AND renewed_at > now() - make_interval(secs => ${LEASE_MS.postgres / 1000}))`;

interface RunRow {
  run_id: string;
  team: string;
  team_id: string;
  started_at: string;
  runner_pid: number | null;
  runner_host: string | null;
  runner_machine: string | null;
  runner_token: string | null;
  live: boolean;
}

const COLUMNS = `run_id, team, team_id, started_at, runner_pid, runner_host, runner_machine, runner_token, ${LIVE} AS live`;

/** A row as a listing: live while its lease holds, unless its runner is known dead (a process of this machine that is gone). */
function listingOf(row: RunRow): RunListing {
  const record = { runId: row.run_id, team: row.team, teamId: row.team_id, startedAt: row.started_at };
  if (row.runner_pid === null || row.runner_host === null) return { ...record, live: false };
  const runner = {
    pid: row.runner_pid,
    host: row.runner_host,
    ...(row.runner_machine === null ? {} : { machine: row.runner_machine }),
    ...(row.runner_token === null ? {} : { token: row.runner_token }),
  };
  return { ...record, runner, live: row.live && !knownDead(runner) };
}

/** This process as a run's row names its runner: pid, host, machine, token. */
const runnerColumns = () => {
  const runner = thisProcess();
  return [runner.pid, runner.host, runner.machine ?? null, runner.token ?? null];
};

export async function readRun(client: PoolClient, s: string, runId: string): Promise<RunListing | undefined> {
  const { rows } = await client.query<RunRow>(`SELECT ${COLUMNS} FROM ${s}.runs WHERE run_id = $1`, [runId]);
  return rows[0] && listingOf(rows[0]);
}

/** The runs (or `team`'s, or the one `runId`), newest first, each with whether its runner holds its lease. */
export async function listRuns(
  pool: Pool,
  s: string,
  options: { team?: string; runId?: string },
): Promise<RunListing[]> {
  const { rows } = await pool.query<RunRow>(
    `SELECT ${COLUMNS} FROM ${s}.runs
     WHERE ($1::text IS NULL OR team = $1) AND ($2::text IS NULL OR run_id = $2) ORDER BY started_at DESC`,
    [options.team ?? null, options.runId ?? null],
  );
  return rows.map(listingOf);
}

/** Records a new run, run by this process (its lease renewed now). */
export async function insertRun(client: PoolClient, s: string, record: RunRecord): Promise<void> {
  await client.query(
    `INSERT INTO ${s}.runs (run_id, team, team_id, started_at, runner_pid, runner_host, runner_machine, runner_token, renewed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())`,
    [record.runId, record.team, record.teamId, record.startedAt, ...runnerColumns()],
  );
}

/** This process runs the run now (a resume). */
export async function takeRun(client: PoolClient, s: string, runId: string): Promise<void> {
  await client.query(
    `UPDATE ${s}.runs SET runner_pid = $2, runner_host = $3, runner_machine = $4, runner_token = $5, renewed_at = now()
     WHERE run_id = $1`,
    [runId, ...runnerColumns()],
  );
}

/** Renews this process's lease on the run; false once the row names another runner (or none). */
export async function renewLease(pool: Pool, s: string, runId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE ${s}.runs SET renewed_at = now() WHERE run_id = $1 AND runner_token = $2`,
    [runId, thisProcess().token],
  );
  return rowCount === 1;
}

/** Clears the run's runner if it is this process, so another process may resume it at once. */
export async function clearRunner(pool: Pool, s: string, runId: string): Promise<void> {
  await pool.query(
    `UPDATE ${s}.runs SET runner_pid = NULL, runner_host = NULL, runner_machine = NULL, runner_token = NULL,
       renewed_at = NULL
     WHERE run_id = $1 AND runner_token = $2`,
    [runId, thisProcess().token],
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
 * A team's run that another live process is running — one that holds the run's lease, on
 * any machine — cannot be restarted, resumed or re-rostered under it. (A runner known dead,
 * that left the run or let its lease run out leaves it to be resumed.)
 */
export async function refuseIfRunElsewhere(client: PoolClient, s: string, info: TeamInfo): Promise<void> {
  if (!info.runId) return;
  const run = await readRun(client, s, info.runId);
  const runner = run?.runner;
  if (!runner || !run.live || isThisProcess(runner)) return;
  if (runStatus(await statusEvents(client, s, info.runId)) !== 'running') return;
  throw teamBusy(info.name, info.runId, runner.pid, runner.host);
}
