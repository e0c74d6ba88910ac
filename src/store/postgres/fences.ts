import type { Pool, PoolClient } from 'pg';
import { TeamError } from '../../errors/index.js';
import { inlined } from './sql-text.js';

// Fencing for turns run on workers. A turn's start writes its agent's fence (turn n, no
// attempt yet) in the transaction that claims its task and queues it; a worker taking the
// job takes the next attempt number and a lease, which it renews while the turn runs; every
// write of an attempt checks, under the team's row lock, that the fence still names it. A
// worker that died lets its lease run out: the run's process then frees the fence and queues
// the turn again (so a killed worker's turn is redone within the lease, whatever the turn's
// timeout), and the next attempt takes it. A worker that lost its turn (to another attempt),
// a turn the run abandoned (resume, abort) or a turn after which the agent started another
// can therefore write nothing more.

/** How long an attempt holds its turn without renewing; a worker renews it every `FENCE_RENEW_MS`. */
export const FENCE_LEASE_MS = 10_000;
export const FENCE_RENEW_MS = 3_000;
const LEASE = `make_interval(secs => ${FENCE_LEASE_MS / 1000})`;

/** A turn attempt: the turn's agent and number in its run, and which try at it this is. */
export interface TurnFence {
  readonly runId: string;
  readonly agent: string;
  readonly turn: number;
  readonly attempt: number;
}

/** Sets the agent's fence to a turn that has started and that no attempt holds yet. */
async function setFence(client: PoolClient, s: string, runId: string, agent: string, turn: number) {
  await client.query(
    `INSERT INTO ${s}.turn_fences (run_id, agent, turn, attempt, lease_until, attempts) VALUES ($1, $2, $3, -1, NULL, 0)
     ON CONFLICT (run_id, agent) DO UPDATE SET turn = $3, attempt = -1, lease_until = NULL, attempts = 0`,
    [runId, agent, turn],
  );
}

/** A turn of an agent of a run, as a job names it (the attempt is the fence's to give). */
export type FencedTurn = Omit<TurnFence, 'attempt'>;

/**
 * Gives the turn's next attempt the fence, with a lease, when no attempt holds it (none took
 * it yet, or the last one's lease ran out); answers the attempt number, from 1, or
 * `undefined` when the turn is not this attempt's to run.
 */
export async function takeFence(
  client: PoolClient | Pool,
  s: string,
  turn: FencedTurn,
): Promise<number | undefined> {
  const { rows } = await client.query<{ attempt: number }>(
    `UPDATE ${s}.turn_fences SET attempt = attempts + 1, attempts = attempts + 1, lease_until = now() + ${LEASE}
     WHERE run_id = $1 AND agent = $2 AND turn = $3 AND (attempt < 0 OR lease_until < now())
     RETURNING attempt`,
    [turn.runId, turn.agent, turn.turn],
  );
  return rows[0]?.attempt;
}

/** Renews the attempt's lease; false when it no longer holds its turn. */
export async function renewFence(client: PoolClient | Pool, s: string, fence: TurnFence): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE ${s}.turn_fences SET lease_until = now() + ${LEASE}
     WHERE run_id = $1 AND agent = $2 AND turn = $3 AND attempt = $4`,
    [fence.runId, fence.agent, fence.turn, fence.attempt],
  );
  return rowCount === 1;
}

/**
 * The attempt has reported how its turn ended: its fence never lapses (a late retry of the
 * turn's job, or a freeing of lapsed fences, does not run the turn again) until the agent's
 * next turn sets it.
 */
async function finishFence(client: PoolClient, s: string, fence: TurnFence): Promise<void> {
  await client.query(
    `UPDATE ${s}.turn_fences SET lease_until = 'infinity'
     WHERE run_id = $1 AND agent = $2 AND turn = $3 AND attempt = $4`,
    [fence.runId, fence.agent, fence.turn, fence.attempt],
  );
}

/**
 * Frees the fence of each of the run's turns whose attempt let its lease run out (its worker
 * died or stalled), so the turn can be queued again; answers those turns, each with how many
 * attempts it had.
 */
async function freeLapsed(
  client: PoolClient,
  s: string,
  runId: string,
): Promise<{ agent: string; turn: number; attempts: number }[]> {
  const { rows } = await client.query<{ agent: string; turn: number; attempts: number }>(
    `UPDATE ${s}.turn_fences SET attempt = -1, lease_until = NULL
     WHERE run_id = $1 AND attempt >= 0 AND lease_until < now()
     RETURNING agent, turn, attempts`,
    [runId],
  );
  return rows;
}

/** The refusal of a write (to the store or the workspace) by an attempt that no longer holds its turn. */
export function staleTurn(fence: TurnFence): TeamError {
  return new TeamError(
    'stale-turn',
    `Turn ${fence.turn} of ${fence.agent} (attempt ${fence.attempt}) no longer holds its turn: the run moved on without it, so its writes are refused.`,
    { details: { ...fence } },
  );
}

/**
 * The statement that reads the attempt's fence and holds its row until the transaction ends,
 * so no other attempt takes the turn before its writes land (sent in the round trip that locks
 * the team's row, after it); `checkFence` reads its answer.
 */
export function fenceSql(s: string, fence: TurnFence): string {
  return inlined(`SELECT turn, attempt FROM ${s}.turn_fences WHERE run_id = $1 AND agent = $2 FOR SHARE`, [
    fence.runId,
    fence.agent,
  ]);
}

/** Refuses with `stale-turn` unless the fence `fenceSql` read names exactly this attempt. */
export function checkFence(rows: readonly unknown[], fence: TurnFence): void {
  const held = rows[0] as { turn: number; attempt: number } | undefined;
  if (held?.turn === fence.turn && held.attempt === fence.attempt) return;
  throw staleTurn(fence);
}

/** Fences out every attempt of the run's turns (a resume), or of one agent's (an abandoned turn). */
export async function dropFences(
  client: PoolClient,
  s: string,
  runId: string,
  agent?: string,
): Promise<void> {
  if (agent === undefined) await client.query(`DELETE FROM ${s}.turn_fences WHERE run_id = $1`, [runId]);
  else await client.query(`DELETE FROM ${s}.turn_fences WHERE run_id = $1 AND agent = $2`, [runId, agent]);
}

/** The database transaction of a `transactWith`, for what it does besides the rules. */
export interface StoreTransaction {
  /** Runs SQL in the transaction (pg-boss's `db` option takes this). */
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
  /** Sets the agent's fence to a turn that starts in this transaction. */
  setFence(runId: string, agent: string, turn: number): Promise<void>;
  /** The attempt reported its turn's end: its fence no longer lapses (see `finishFence`). */
  finishFence(fence: TurnFence): Promise<void>;
  /** Frees the fences of the run's turns whose attempt's lease ran out (see `freeLapsed`). */
  freeLapsed(runId: string): Promise<{ agent: string; turn: number; attempts: number }[]>;
}

export function storeTransaction(client: PoolClient, s: string): StoreTransaction {
  return {
    executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
    setFence: (runId, agent, turn) => setFence(client, s, runId, agent, turn),
    freeLapsed: (runId) => freeLapsed(client, s, runId),
    finishFence: (fence) => finishFence(client, s, fence),
  };
}
