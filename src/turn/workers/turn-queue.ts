import type PgBoss from 'pg-boss';
import { importPeer, PG_BOSS } from '../../errors/peer-dependency.js';
import { FENCE_LEASE_MS } from '../../store/postgres/fences.js';
import type { PostgresStore } from '../../store/postgres/postgres-store.js';
import { BossDatabase } from './boss-database.js';

// The pg-boss side of running turns on workers: one queue of turn descriptors per team, and
// beside it a queue for the turns pg-boss gave up on (every attempt's lease ran out), so a
// lost turn is reported as failed instead of waited for.

/** Attempts at a turn after the first, when a worker dies or stalls with it (its lease runs out). */
export const TURN_RETRIES = 2;
/**
 * How long pg-boss lets a worker hold a turn's job before it gives the job to another: the
 * fence's lease and a margin. A worker that fetched a job and died before it took the turn's
 * fence has its job given to another then; one that runs a longer turn keeps the turn by its
 * lease on the fence, so pg-boss's retry of the job finds the turn held, and does nothing.
 */
export const JOB_SECONDS = Math.ceil(FENCE_LEASE_MS / 1000) + 5;

export const queueOf = (team: string) => `agent-teams.turns.${team}`;
export const lostQueueOf = (team: string) => `agent-teams.lost-turns.${team}`;
/** pg-boss's tables live beside the store's, in a schema of their own. */
const bossSchemaOf = (store: PostgresStore) => `${store.schema}_boss`;

interface BossOptions {
  /** Whether this instance expires jobs whose lease ran out (workers do; a run's loop need not). */
  readonly supervise: boolean;
  /** Connections its pool opens at most. */
  readonly connections: number;
  /** Told of each error pg-boss reports (a failed poll is tried again; the error is never swallowed). */
  readonly onError: (error: Error) => void;
}

/** How long opening one of pg-boss's connections may take before it counts as lost. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The `application_name` of pg-boss's connections for the store's schema. */
const bossNameOf = (store: PostgresStore) => `agent-teams boss ${store.schema}`.slice(0, 63);

/** A pg-boss instance and how to stop it. */
export interface OpenBoss {
  readonly boss: PgBoss;
  /** Stops it (turns in hand fail back to pg-boss) and closes its connections, without waiting for a database away. */
  stop(): Promise<void>;
}

/**
 * Starts a pg-boss instance on the store's database (installing its schema if missing), its
 * statements run by a `BossDatabase`: a lost connection is tried again, never the process's end.
 */
export async function openBoss(store: PostgresStore, options: BossOptions): Promise<OpenBoss> {
  const PgBossClass = (await importPeer(() => import('pg-boss'), PG_BOSS)).default;
  const db = new BossDatabase(
    {
      connectionString: store.connectionString,
      max: options.connections,
      // Named for its schema in pg_stat_activity, so an operator (or a test) can tell whose it is.
      application_name: bossNameOf(store),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    },
    options.onError,
  );
  const boss = new PgBossClass({
    db,
    schema: bossSchemaOf(store),
    supervise: options.supervise,
    schedule: false,
    // Leases that ran out are found within this many seconds (pg-boss coordinates the check).
    ...(options.supervise ? { maintenanceIntervalSeconds: 2 } : {}),
  });
  boss.on('error', options.onError);
  const stop = async () => {
    db.stopping();
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    await db.close();
  };
  try {
    await boss.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { boss, stop };
}

/** Makes the team's queues (each once; several processes may ask at once). */
export async function ensureQueues(boss: PgBoss, team: string): Promise<void> {
  for (const [name, options] of [
    [lostQueueOf(team), {}],
    [queueOf(team), { retryLimit: TURN_RETRIES, retryDelay: 0, deadLetter: lostQueueOf(team) }],
  ] as const) {
    // Processes starting at once may deadlock making the queue's table: PostgreSQL then
    // fails one of them, which finds the queue made, or tries again.
    for (let attempt = 1; !(await boss.getQueue(name)); attempt++) {
      await boss.createQueue(name, { name, policy: 'standard', ...options }).catch((error: unknown) => {
        if (attempt >= 5) throw error;
      });
    }
  }
}
