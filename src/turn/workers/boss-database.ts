import pg from 'pg';
import { OutageWatch } from '../../store/outage-watch.js';
import { connectionLost, patiently } from '../../store/postgres/reconnect.js';

/** No rows: the answer of a statement given up once pg-boss stops. */
const NONE = { rows: [] };

/**
 * Where pg-boss's statements go (its `db` option): a pool of their own, under the store's
 * rules for a lost connection. A statement whose connection is lost is tried again (a new
 * connection at once, then with backoff) for as long as the database stays away: pg-boss 10
 * does not await its completion of a job, so an error there would end the process, and a
 * worker is to wait out any outage. Each lost connection is still told (`onError`), never
 * swallowed.
 *
 * Once pg-boss stops, a statement the database does not answer is given up as answering no
 * rows, so a stop never waits for the database: a job whose completion is lost so expires
 * and is tried again, and its retry finds the turn's fence taken (nothing is done twice).
 */
export class BossDatabase {
  readonly #pool: pg.Pool;
  readonly #onError: (error: Error) => void;
  /** Waits for ever: pg-boss's own loops are what waits, and they stop only with it. */
  readonly #watch = new OutageWatch(Number.POSITIVE_INFINITY);
  #stopping = false;
  #closed = false;

  constructor(config: pg.PoolConfig, onError: (error: Error) => void) {
    this.#onError = onError;
    this.#pool = new pg.Pool(config);
    this.#pool.on('error', onError);
    // A client in use hears of its lost connection through its query (see PostgresStore).
    this.#pool.on('connect', (client) => client.on('error', () => {}));
  }

  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    return patiently(this.#watch, async () => {
      if (this.#closed) return NONE;
      try {
        return await this.#pool.query(text, values);
      } catch (error) {
        if (!connectionLost(error)) throw error;
        this.#onError(error as Error);
        if (this.#stopping) return NONE;
        throw error;
      }
    });
  }

  /** pg-boss is stopping: statements no longer wait for the database. */
  stopping(): void {
    this.#stopping = true;
  }

  /** pg-boss has stopped: its connections close, and a late statement (a job's completion) answers no rows. */
  async close(): Promise<void> {
    this.#stopping = true;
    this.#closed = true;
    await this.#pool.end();
  }
}
