import type { PoolClient } from 'pg';
import { findTask } from '../../board/task-list-state.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import type { StateKey } from '../../state/change-recorder.js';
import { type TeamState, taskList } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';

// Writes of a commit, inside the transaction that locked the team's row. Values go as
// parameters (JSON), never into the SQL text.

/**
 * Persists the keys a transaction changed and appends its events, in one statement: tasks
 * upserted or deleted, inboxes upserted, events inserted, the team's row moved to its next
 * version with its event counter and task-id high watermark. Answers the new version.
 */
export async function writeCommit(
  client: PoolClient,
  s: string,
  state: TeamState,
  changed: readonly StateKey[],
  events: readonly TeamEvent[],
): Promise<number> {
  const list = taskList(state);
  const put: unknown[] = [];
  const removed: string[] = [];
  const inboxes: { agent: string; messages: unknown }[] = [];
  for (const key of changed) {
    if (key.startsWith('task:')) {
      const id = key.slice('task:'.length);
      const task = findTask(list, id);
      if (task) put.push(task);
      else removed.push(id);
    } else if (key.startsWith('inbox:')) {
      const agent = key.slice('inbox:'.length);
      inboxes.push({ agent, messages: state.bus.inbox(agent) });
    }
  }
  // Without a run, events are passed to subscribers but logged nowhere (as in every store).
  const runId = state.info.runId;
  const logged = runId ? events : [];
  const { rows } = await client.query<{ version: string }>(
    `WITH
      put_tasks AS (
        INSERT INTO ${s}.tasks (team, id, body)
        SELECT $1, x->>'id', x FROM jsonb_array_elements($2::jsonb) AS x
        ON CONFLICT (team, id) DO UPDATE SET body = excluded.body),
      removed_tasks AS (DELETE FROM ${s}.tasks WHERE team = $1 AND id = ANY($3::text[])),
      put_inboxes AS (
        INSERT INTO ${s}.inboxes (team, agent, messages)
        SELECT $1, x->>'agent', x->'messages' FROM jsonb_array_elements($4::jsonb) AS x
        ON CONFLICT (team, agent) DO UPDATE SET messages = excluded.messages),
      logged AS (
        INSERT INTO ${s}.events (run_id, seq, body)
        SELECT $5, (x->>'seq')::integer, x FROM jsonb_array_elements($6::jsonb) AS x)
    UPDATE ${s}.teams SET version = version + 1, event_seq = $7, high_watermark = $8
    WHERE name = $1 RETURNING version`,
    [
      state.info.name,
      JSON.stringify(put),
      removed,
      JSON.stringify(inboxes),
      runId,
      JSON.stringify(logged),
      state.eventSeq,
      list.highWatermark,
    ],
  );
  return Number(rows[0]?.version);
}

/**
 * Replaces the team's info (a new roster, a new run); with `empty`, its tasks and inboxes go
 * too (a fresh run). Answers the new version.
 */
export async function writeInfo(
  client: PoolClient,
  s: string,
  info: TeamInfo,
  eventSeq: number,
  empty: boolean,
): Promise<number> {
  if (empty) {
    await client.query(`DELETE FROM ${s}.tasks WHERE team = $1`, [info.name]);
    await client.query(`DELETE FROM ${s}.inboxes WHERE team = $1`, [info.name]);
  }
  const { rows } = await client.query<{ version: string }>(
    `UPDATE ${s}.teams SET info = $2, version = version + 1, event_seq = $3,
       high_watermark = CASE WHEN $4 THEN 0 ELSE high_watermark END
     WHERE name = $1 RETURNING version`,
    [info.name, JSON.stringify(info), eventSeq, empty],
  );
  return Number(rows[0]?.version);
}

/** Makes a new team's row; `false` when another process made it first. */
export async function insertTeam(client: PoolClient, s: string, info: TeamInfo): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO ${s}.teams (name, info, version) VALUES ($1, $2, 1) ON CONFLICT (name) DO NOTHING`,
    [info.name, JSON.stringify(info)],
  );
  return rowCount === 1;
}
