import type { PoolClient } from 'pg';
import type { StateKey } from '../../board/change-recorder.js';
import { findTask } from '../../board/task-list-state.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import type { TeamMessage } from '../../mailbox/message.js';
import { storedRequests } from '../../requests/request-state.js';
import { type TeamState, taskList } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';
import type { TurnFence } from './fences.js';
import type { Stamp, TeamRow } from './load.js';
import { inlined } from './sql-text.js';
import { storedJson } from './stored-json.js';

// Writes of a commit, inside the transaction that locked the team's row. Values go as
// parameters (JSON, encoded so that any string survives: stored-json.ts), never into the SQL text.

/** How a commit that logs events tells other processes: on `channel`, unless only the session `listener` (the committer's own) listens. */
export interface Notice {
  readonly channel: string;
  readonly payload: string;
  /** The backend pid of this store's own listening session, if it has one (it hears its own commits directly). */
  readonly listener: number | null;
}

/**
 * The statement that persists the keys a transaction changed and appends its events: tasks
 * upserted (stamped with the new version) or deleted (a new epoch), inbox messages upserted or dropped, events
 * inserted, the team's row moved to its next version with its event counter and task-id
 * high watermark, and the commit NOTIFYed (delivered at COMMIT) when another process's
 * session listens to the team. The statement runs after the row's lock is held, so it sees
 * every listener registered before (see listener.ts). Answers the statement, sent with the
 * COMMIT in one round trip, and where the team stands after it.
 */
export function writeCommit(
  s: string,
  row: Stamp,
  state: TeamState,
  { changed, previous }: { changed: readonly StateKey[]; previous: ReadonlyMap<StateKey, unknown> },
  events: readonly TeamEvent[],
  notice: Notice | undefined,
  token: string | null,
  fence?: TurnFence,
): Stamp & { readonly statement: string } {
  const list = taskList(state);
  const put: unknown[] = [];
  const removed: string[] = [];
  // An inbox writes only its messages that are new or changed (a message is a frozen object:
  // one not in the inbox before is new, or marked read) and drops those no longer in it.
  const messages: { agent: string; message: TeamMessage }[] = [];
  const dropped: [string, string][] = [];
  for (const key of changed) {
    if (key.startsWith('task:')) {
      const id = key.slice('task:'.length);
      const task = findTask(list, id);
      if (task) put.push(task);
      else removed.push(id);
    } else if (key.startsWith('inbox:')) {
      const agent = key.slice('inbox:'.length);
      const before = (previous.get(key) ?? []) as readonly TeamMessage[];
      const now = state.bus.inbox(agent);
      const kept = new Set(before);
      for (const message of now) if (!kept.has(message)) messages.push({ agent, message });
      const ids = new Set(now.map((message) => message.id));
      for (const message of before) if (!ids.has(message.id)) dropped.push([agent, message.id]);
    }
  }
  // Without a run, events are passed to subscribers but logged nowhere (as in every store).
  const runId = state.info.runId;
  const logged = runId ? events : [];
  const version = row.version + 1;
  // A roster change is a change of the team's info: a new epoch, so every process re-reads it.
  const rosterChanged = changed.includes('roster');
  const requestsChanged = changed.includes('requests');
  const epoch = removed.length > 0 || rosterChanged ? row.epoch + 1 : row.epoch;
  // With a token, the statement is a transaction of its own, sent with no lock held: the
  // team's row is locked in it, and it writes only if the row is still at the version the
  // state was read at (any commit moves it), else it writes nothing and answers no row.
  // With a fence too, only while the attempt still holds its turn: the fence's row is held
  // (after the team's, as a locked commit takes them) until the statement's transaction ends.
  const guarded =
    token === null
      ? ''
      : `AND EXISTS (SELECT 1 FROM guard)${fence ? ' AND EXISTS (SELECT 1 FROM fence)' : ''}`;
  const guard =
    token === null
      ? ''
      : `guard AS MATERIALIZED (
        SELECT 1 FROM ${s}.teams WHERE name = $1 AND version = $16 AND epoch = $17 FOR UPDATE),${
          fence
            ? `
      fence AS MATERIALIZED (
        SELECT 1 FROM ${s}.turn_fences WHERE run_id = $20 AND agent = $21 AND turn = $22 AND attempt = $23
          AND EXISTS (SELECT 1 FROM guard) FOR SHARE),`
            : ''
        }`;
  const statement = inlined(
    `WITH ${guard}
      put_tasks AS (
        INSERT INTO ${s}.tasks (team, id, body, version)
        SELECT $1, x->>'id', x, $9 FROM jsonb_array_elements($2::jsonb) AS x WHERE true ${guarded}
        ON CONFLICT (team, id) DO UPDATE SET body = excluded.body, version = excluded.version),
      removed_tasks AS (DELETE FROM ${s}.tasks WHERE team = $1 AND id = ANY($3::text[]) ${guarded}),
      put_messages AS (
        INSERT INTO ${s}.inbox_messages (team, agent, id, body, version)
        SELECT $1, x->>'agent', x->'message'->>'id', x->'message', $9
        FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS m (x, n) WHERE true ${guarded} ORDER BY n
        ON CONFLICT (team, agent, id) DO UPDATE SET body = excluded.body, version = excluded.version),
      dropped_messages AS (
        UPDATE ${s}.inbox_messages SET body = NULL, version = $9
        WHERE team = $1 AND (agent, id) IN (SELECT x->>0, x->>1 FROM jsonb_array_elements($19::jsonb) AS x) ${guarded}),
      logged AS (
        INSERT INTO ${s}.events (run_id, seq, body, commit_token)
        SELECT $5, (x->>'seq')::integer, x, CASE WHEN ordinality = 1 THEN $18 END
        FROM jsonb_array_elements($6::jsonb) WITH ORDINALITY AS e (x, ordinality) WHERE true ${guarded})
    UPDATE ${s}.teams SET version = $9, epoch = $10, event_seq = $7, high_watermark = $8,
      info = COALESCE($11::jsonb, info),
      requests = CASE WHEN $12::jsonb IS NULL THEN requests ELSE $12::jsonb END,
      requests_version = CASE WHEN $12::jsonb IS NULL THEN requests_version ELSE $9 END
    WHERE name = $1 ${guarded}
    RETURNING CASE WHEN $13::text IS NOT NULL AND EXISTS (
      SELECT 1 FROM ${s}.listeners WHERE team = $1 AND pid IS DISTINCT FROM $15::integer
    ) THEN pg_notify($13, $14) END`,
    [
      state.info.name,
      storedJson(put),
      removed,
      storedJson(messages),
      runId,
      storedJson(logged),
      state.eventSeq,
      list.highWatermark,
      version,
      epoch,
      rosterChanged ? storedJson(state.info) : null,
      requestsChanged ? storedJson(storedRequests(state.requests)) : null,
      notice?.channel ?? null,
      notice?.payload ?? null,
      notice?.listener ?? null,
      row.version,
      row.epoch,
      token,
      storedJson(dropped),
      fence?.runId ?? null,
      fence?.agent ?? null,
      fence?.turn ?? null,
      fence?.attempt ?? null,
    ],
  );
  return { version, epoch, statement };
}

/**
 * Replaces the team's info (a new roster, a new run), in a new epoch (every process re-reads
 * the team); with `empty`, its tasks and inboxes go too (a fresh run); with `newRun`, its
 * requests (they belong to their run).
 */
export async function writeInfo(
  client: PoolClient,
  s: string,
  row: TeamRow,
  info: TeamInfo,
  eventSeq: number,
  { empty, newRun }: { readonly empty: boolean; readonly newRun: boolean },
): Promise<Stamp> {
  if (empty) {
    await client.query(`DELETE FROM ${s}.tasks WHERE team = $1`, [info.name]);
    await client.query(`DELETE FROM ${s}.inbox_messages WHERE team = $1`, [info.name]);
  }
  const stamp = { version: row.version + 1, epoch: row.epoch + 1 };
  // A new run (or a new roster) starts with no requests: they belong to their run.
  await client.query(
    `UPDATE ${s}.teams SET info = $2, version = $5, epoch = $6, event_seq = $3,
       high_watermark = CASE WHEN $4 THEN 0 ELSE high_watermark END,
       requests = CASE WHEN $7 THEN NULL ELSE requests END,
       requests_version = CASE WHEN $7 THEN $5 ELSE requests_version END
     WHERE name = $1`,
    [info.name, storedJson(info), eventSeq, empty, stamp.version, stamp.epoch, newRun],
  );
  return stamp;
}

/** Makes a new team's row; `false` when another process made it first. */
export async function insertTeam(client: PoolClient, s: string, info: TeamInfo): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO ${s}.teams (name, info, version) VALUES ($1, $2, 1) ON CONFLICT (name) DO NOTHING`,
    [info.name, storedJson(info)],
  );
  return rowCount === 1;
}
