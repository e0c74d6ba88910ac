import type { PoolClient } from 'pg';
import type { TeamTask } from '../../board/task.js';
import type { TeamMessage } from '../../mailbox/message.js';
import { type TeamState, teamState } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';

/** A team's row as locked at the start of a transaction. */
export interface TeamRow {
  readonly info: TeamInfo;
  /** Moves with every commit: a process's cache at the same version is current. */
  readonly version: number;
  readonly eventSeq: number;
  readonly highWatermark: number;
}

/**
 * Locks the team's row for the rest of the transaction (`FOR UPDATE`): every transaction of
 * the team, in any process, waits here for the one before it. `undefined` for no such team.
 */
export async function lockTeam(client: PoolClient, s: string, name: string): Promise<TeamRow | undefined> {
  const { rows } = await client.query<{
    info: TeamInfo;
    version: string;
    event_seq: number;
    high_watermark: number;
  }>(`SELECT info, version, event_seq, high_watermark FROM ${s}.teams WHERE name = $1 FOR UPDATE`, [name]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    info: row.info,
    version: Number(row.version),
    eventSeq: row.event_seq,
    highWatermark: row.high_watermark,
  };
}

/** Reads the team's tasks and inboxes: the whole state, when this process's cache is behind. */
export async function loadTeam(client: PoolClient, s: string, row: TeamRow): Promise<TeamState> {
  const name = row.info.name;
  const tasks = await client.query<{ body: TeamTask }>(`SELECT body FROM ${s}.tasks WHERE team = $1`, [name]);
  const inboxes = await client.query<{ agent: string; messages: TeamMessage[] }>(
    `SELECT agent, messages FROM ${s}.inboxes WHERE team = $1`,
    [name],
  );
  return teamState(
    row.info,
    {
      tasks: tasks.rows.map((task) => task.body),
      highWatermark: row.highWatermark,
      inboxes: Object.fromEntries(inboxes.rows.map((inbox) => [inbox.agent, inbox.messages])),
    },
    row.eventSeq,
  );
}
