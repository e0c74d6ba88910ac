import type pg from 'pg';
import type { TeamState } from '../team-state.js';
import { lockTeam, type Stamp, type TeamRow } from './load.js';
import { storeError } from './store-error.js';

/** What a piece of work in a team's transaction leaves: its answer, the team as cached, what follows COMMIT. */
export interface Done<T> {
  value: T;
  /** The team after the work and its version in the database; absent when nothing was written. */
  next?: Stamp & { state: TeamState };
  after?: () => void;
}

export type Cached = Stamp & { state: TeamState };

/**
 * Runs work on a team in one database transaction holding the team's row, after this
 * process's earlier work on the team (so its cache is used, not re-read); then caches the
 * team, and runs what follows the commit.
 */
export class LockedTeams {
  readonly cache = new Map<string, Cached>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #ready: () => Promise<void>;

  constructor(pool: pg.Pool, s: string, ready: () => Promise<void>) {
    this.#pool = pool;
    this.#s = s;
    this.#ready = ready;
  }

  run<T>(
    name: string,
    work: (client: pg.PoolClient, row: TeamRow | undefined) => Promise<Done<T>>,
  ): Promise<T> {
    const previous = this.#queues.get(name) ?? Promise.resolve();
    const run = previous.then(async () => {
      await this.#ready();
      const client = await this.#pool.connect().catch((error) => Promise.reject(storeError(error)));
      let broken = false;
      try {
        await client.query('BEGIN');
        const done = await work(client, await lockTeam(client, this.#s, name));
        await client.query('COMMIT');
        if (done.next) this.cache.set(name, done.next);
        done.after?.();
        return done.value;
      } catch (error) {
        // A connection that fails its ROLLBACK is not given back to the pool.
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw storeError(error);
      } finally {
        client.release(broken);
      }
    });
    const settled = run.catch(() => {});
    this.#queues.set(name, settled);
    void settled.then(() => {
      if (this.#queues.get(name) === settled) this.#queues.delete(name);
    });
    return run;
  }

  /** Settles once the work queued so far has. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#queues.values()]);
  }
}
