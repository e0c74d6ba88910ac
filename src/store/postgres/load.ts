import type { TeamTask } from '../../board/task.js';
import { putTask } from '../../board/task-list-state.js';
import { type TeamMessage, withKind } from '../../mailbox/message.js';
import { requestsFrom, type StoredRequests } from '../../requests/request-state.js';
import { infoOf, type StoredInfo } from '../team-info.js';
import { type TeamState, taskList, teamState } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';
import { inlined } from './sql-text.js';

/**
 * Where a team stands: `version` moves with every commit (each task and inbox row records
 * the version that wrote it), `epoch` with every commit that removed rows or changed the
 * team's info. A cache of the same epoch catches up by reading the rows of later versions.
 */
export interface Stamp {
  readonly version: number;
  readonly epoch: number;
}

interface ReadRow {
  /** Only when the team is read whole: a cache of the same epoch has it already. */
  info: StoredInfo | null;
  version: string;
  epoch: string;
  event_seq: number;
  high_watermark: number;
  requests_version: string;
  since: string;
  tasks: TeamTask[];
  messages: Changed['messages'];
  with_requests: boolean;
  requests: StoredRequests | null;
}

/** A team as this process caches it: its state at a version. */
type Cached = Stamp & { state: TeamState };

/** A team's row as read in a transaction (locked, or in a read's one statement). */
export interface TeamRow extends Stamp {
  readonly info: TeamInfo;
  readonly eventSeq: number;
  readonly highWatermark: number;
  /** The version that last wrote the requests. */
  readonly requestsVersion: number;
}

/** The task and inbox message rows written after a version, and the requests when they were. */
interface Changed {
  tasks: TeamTask[];
  /** In each inbox's order; a message dropped from its inbox has no body. */
  messages: { agent: string; id: string; body: TeamMessage | null }[];
  /** `undefined` when no commit after that version wrote them. */
  requests: StoredRequests | null | undefined;
}

/** A team's row and what changed since a cache's version: the whole team when `since` is -1. */
export interface TeamRead {
  readonly row: TeamRow;
  readonly since: number;
  readonly changed: Changed;
}

/**
 * One statement (so one snapshot) that reads the team's row and the task and inbox rows
 * written after `cached`'s version (every row when the epoch moved, or with no cache), and
 * the requests when a later commit wrote them: all a cache needs to catch up, nothing when it
 * is current. With `unless`, a condition, it reads nothing when that holds. Its values go
 * inlined, so that it can go in one text with other statements.
 */
export function readTeamSql(s: string, name: string, cached: Stamp | undefined, unless?: string): string {
  // `unless` is added after the values go in: it holds literals of its own.
  const read = inlined(
    `SELECT CASE WHEN c.since < 0 THEN t.info END AS info, t.version, t.epoch, t.event_seq, t.high_watermark, t.requests_version, c.since,
       (SELECT coalesce(json_agg(body), '[]') FROM ${s}.tasks WHERE team = t.name AND version > c.since) AS tasks,
       (SELECT coalesce(json_agg(json_build_object('agent', agent, 'id', id, 'body', body) ORDER BY ord), '[]')
          FROM ${s}.inbox_messages
          WHERE team = t.name AND version > c.since AND (body IS NOT NULL OR c.since >= 0)) AS messages,
       t.requests_version > c.since AS with_requests,
       CASE WHEN t.requests_version > c.since THEN t.requests END AS requests
     FROM ${s}.teams AS t
       CROSS JOIN LATERAL (SELECT CASE WHEN t.epoch = $2 THEN $3 ELSE -1 END AS since) AS c
     WHERE t.name = $1`,
    [name, cached?.epoch ?? null, cached?.version ?? null],
  );
  return unless ? `${read} AND NOT ${unless}` : read;
}

/** The answer of `readTeamSql` for `cached`: `undefined` for no such team (or `unless` held). */
export function teamRead(rows: readonly unknown[], cached: Cached | undefined): TeamRead | undefined {
  const row = rows[0] as ReadRow | undefined;
  if (!row) return undefined;
  // Read in part only for a cache of the same epoch, whose info it is.
  const info = (row.info ? infoOf(row.info) : cached?.state.info) as TeamInfo;
  return {
    row: {
      info,
      version: Number(row.version),
      epoch: Number(row.epoch),
      eventSeq: row.event_seq,
      highWatermark: row.high_watermark,
      requestsVersion: Number(row.requests_version),
    },
    since: Number(row.since),
    changed: {
      tasks: row.tasks,
      messages: row.messages,
      requests: row.with_requests ? row.requests : undefined,
    },
  };
}

/**
 * The team at the row `read` found: `cached` (the cache the read was made for) brought up to
 * date with the rows written after its version, or (another epoch, or no cache) the team read
 * whole. The cached state is changed in place.
 */
export function teamAt({ row, since, changed }: TeamRead, cached: Cached | undefined): TeamState {
  const { tasks, messages } = changed;
  const requests = changed.requests === undefined ? undefined : requestsFrom(changed.requests ?? undefined);
  if (since >= 0 && cached) {
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
