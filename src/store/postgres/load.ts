import type pg from 'pg';
import type { PoolClient } from 'pg';
import type { TeamTask } from '../../board/task.js';
import { putTask } from '../../board/task-list-state.js';
import { type TeamMessage, withKind } from '../../mailbox/message.js';
import { requestsFrom, type StoredRequests } from '../../requests/request-state.js';
import { infoOf, type StoredInfo } from '../team-info.js';
import { type TeamState, taskList, teamState } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';

/**
 * Where a team stands: `version` moves with every commit (each task and inbox row records
 * the version that wrote it), `epoch` with every commit that removed rows or changed the
 * team's info. A cache of the same epoch catches up by reading the rows of later versions.
 */
export interface Stamp {
  readonly version: number;
  readonly epoch: number;
}

interface LockedRow {
  info: StoredInfo;
  version: string;
  epoch: string;
  event_seq: number;
  high_watermark: number;
  requests_version: string;
  txid: string;
}

/** A team's row as locked at the start of a transaction. */
export interface TeamRow extends Stamp {
  readonly info: TeamInfo;
  readonly eventSeq: number;
  readonly highWatermark: number;
  /** The version that last wrote the requests. */
  readonly requestsVersion: number;
}

/**
 * Begins a transaction and locks the team's row for the rest of it (`FOR UPDATE`): every
 * transaction of the team, in any process, waits here for the one before it (with
 * `lock: false`, only reads the row, in the snapshot already begun, for a read that takes no
 * lock). `row` is `undefined` for no such team; `txid` is the transaction's id when the row
 * was locked (locking gave it one), so a COMMIT whose answer is lost can be asked after.
 */
export async function lockTeam(
  client: PoolClient,
  s: string,
  name: string,
  { lock = true }: { readonly lock?: boolean } = {},
): Promise<{ row: TeamRow | undefined; txid: string | undefined }> {
  // A read takes no transaction id: it writes nothing.
  const txid = lock ? 'txid_current()::text' : 'NULL';
  const select = `SELECT info, version, epoch, event_seq, high_watermark, requests_version, ${txid} AS txid
     FROM ${s}.teams WHERE name = ${client.escapeLiteral(name)}${lock ? ' FOR UPDATE' : ''}`;
  // With the lock, the transaction begins in the same round trip (one text, two statements;
  // the name goes as a quoted literal, as a text of two statements takes no parameters).
  const results = (await client.query(lock ? `BEGIN; ${select}` : select)) as unknown as
    | pg.QueryResult<LockedRow>
    | pg.QueryResult<LockedRow>[];
  const { rows } = Array.isArray(results) ? (results[1] as pg.QueryResult<LockedRow>) : results;
  const row = rows[0];
  if (!row) return { row: undefined, txid: undefined };
  return {
    row: {
      info: infoOf(row.info),
      version: Number(row.version),
      epoch: Number(row.epoch),
      eventSeq: row.event_seq,
      highWatermark: row.high_watermark,
      requestsVersion: Number(row.requests_version),
    },
    txid: row.txid,
  };
}

/** The task and inbox message rows written after a version, and the requests when they were. */
interface Changed {
  tasks: TeamTask[];
  /** In each inbox's order; a message dropped from its inbox has no body. */
  messages: { agent: string; id: string; body: TeamMessage | null }[];
  requests: StoredRequests | null;
}

/**
 * The team's state at the locked row: `cached` brought up to date by reading only the task
 * and inbox rows written after its version, or (another epoch, or no cache) read whole.
 */
export async function loadTeam(
  client: PoolClient,
  s: string,
  row: TeamRow,
  cached: (Stamp & { state: TeamState }) | undefined,
): Promise<TeamState> {
  const name = row.info.name;
  const since = cached?.epoch === row.epoch ? cached.version : undefined;
  if (since === row.version && cached) return cached.state;
  const after = since ?? -1;
  // The requests are read only when a commit after the cache wrote them.
  const withRequests = !(since !== undefined && row.requestsVersion <= since);
  // One statement, so one round trip while the row is locked.
  const { rows } = await client.query<Changed>(
    `SELECT
       (SELECT coalesce(json_agg(body), '[]') FROM ${s}.tasks WHERE team = $1 AND version > $2) AS tasks,
       (SELECT coalesce(json_agg(json_build_object('agent', agent, 'id', id, 'body', body) ORDER BY ord), '[]')
          FROM ${s}.inbox_messages
          WHERE team = $1 AND version > $2 AND (body IS NOT NULL OR $2 >= 0)) AS messages,
       CASE WHEN $3 THEN (SELECT requests FROM ${s}.teams WHERE name = $1) END AS requests`,
    [name, after, withRequests],
  );
  const { tasks, messages } = rows[0] as Changed;
  const requests = withRequests ? requestsFrom((rows[0] as Changed).requests ?? undefined) : undefined;
  if (since !== undefined && cached) {
    const { state } = cached;
    if (requests) state.requests = requests;
    const list = taskList(state);
    for (const task of tasks) putTask(list, task);
    for (const [agent, changes] of byAgent(messages)) {
      // Messages are only appended: the changed ones replace theirs, the rest come after.
      const update = new Map(changes.map((change) => [change.id, change.body]));
      const inbox: TeamMessage[] = [];
      for (const message of state.bus.inbox(agent)) {
        const changed = update.get(message.id);
        if (changed === undefined) inbox.push(message);
        else if (changed !== null) inbox.push(withKind(changed));
        update.delete(message.id);
      }
      for (const body of update.values()) if (body !== null) inbox.push(withKind(body));
      state.bus.replaceInbox(agent, inbox);
    }
    list.highWatermark = row.highWatermark;
    state.eventSeq = row.eventSeq;
    return state;
  }
  return teamState(
    row.info,
    {
      tasks,
      highWatermark: row.highWatermark,
      inboxes: Object.fromEntries(
        [...byAgent(messages)].map(([agent, rows]) => [
          agent,
          rows.flatMap((row) => (row.body === null ? [] : [withKind(row.body)])),
        ]),
      ),
      ...(requests ? { requests } : {}),
    },
    row.eventSeq,
  );
}

/** Message rows by inbox, each inbox's in order. */
function byAgent(rows: Changed['messages']): Map<string, Changed['messages']> {
  const inboxes = new Map<string, Changed['messages']>();
  for (const row of rows) {
    const inbox = inboxes.get(row.agent);
    if (inbox) inbox.push(row);
    else inboxes.set(row.agent, [row]);
  }
  return inboxes;
}
