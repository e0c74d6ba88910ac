import type { PoolClient } from 'pg';
import { TeamError } from '../../errors/index.js';

// Fencing for turns run on workers. A turn's start writes its agent's fence (turn n, no
// attempt yet) in the transaction that claims its task and queues it; a worker taking the
// job raises the attempt to its own; every write of an attempt checks, under the team's row
// lock, that the fence still names it. A worker that lost its job (its lease expired and the
// turn went to another), a turn the run abandoned (resume, abort) or a turn after which the
// agent started another can therefore write nothing more.

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
    `INSERT INTO ${s}.turn_fences (run_id, agent, turn, attempt) VALUES ($1, $2, $3, -1)
     ON CONFLICT (run_id, agent) DO UPDATE SET turn = $3, attempt = -1`,
    [runId, agent, turn],
  );
}

/** Moves the fence to `fence`'s attempt if it names its turn and no later attempt holds it. */
export async function takeFence(client: PoolClient, s: string, fence: TurnFence): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE ${s}.turn_fences SET attempt = $4 WHERE run_id = $1 AND agent = $2 AND turn = $3 AND attempt < $4`,
    [fence.runId, fence.agent, fence.turn, fence.attempt],
  );
  return rowCount === 1;
}

/** Refuses with `stale-turn` unless the fence names exactly this attempt. */
export async function checkFence(client: PoolClient, s: string, fence: TurnFence): Promise<void> {
  const { rows } = await client.query<{ turn: number; attempt: number }>(
    `SELECT turn, attempt FROM ${s}.turn_fences WHERE run_id = $1 AND agent = $2`,
    [fence.runId, fence.agent],
  );
  const held = rows[0];
  if (held?.turn === fence.turn && held.attempt === fence.attempt) return;
  throw new TeamError(
    'stale-turn',
    `Turn ${fence.turn} of ${fence.agent} (attempt ${fence.attempt}) no longer holds its turn: the run moved on without it, so its writes are refused.`,
    { details: { ...fence } },
  );
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
}

export function storeTransaction(client: PoolClient, s: string): StoreTransaction {
  return {
    executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
    setFence: (runId, agent, turn) => setFence(client, s, runId, agent, turn),
  };
}
