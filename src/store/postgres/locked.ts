import type pg from 'pg';
import type { OutageWatch } from '../outage-watch.js';
import type { TeamState } from '../team-state.js';
import { readTeamSql, type Stamp, type TeamRow, teamAt, teamRead } from './load.js';
import { CommitInDoubt, connectionLost, storePatiently } from './reconnect.js';
import { literal } from './sql-text.js';
import { storeError } from './store-error.js';

/** What a piece of work in a team's transaction leaves: its answer, the team as cached, what follows COMMIT. */
export interface Done<T> {
  value: T;
  /** The team after the work and its version in the database; absent when nothing was written. */
  next?: Stamp & { state: TeamState };
  /** A statement of the work's to send with the COMMIT, in the same round trip (its last write). */
  write?: string;
  after?: () => void;
}

export type Cached = Stamp & { state: TeamState };

/** The team as a transaction holding its row found it: the row, and the state at its version. */
export type LockedTeam = TeamRow & { readonly state: TeamState };

/**
 * A commit made on the cached team, to be sent as one statement with no lock taken first
 * (`write`, guarded by the cached version; see write.ts), and how to tell that it landed
 * after its answer was lost: its first event, in `runId` at `seq`, carries `token`.
 */
export interface Guess<T> {
  readonly done: Done<T> & { readonly write: string };
  /** The version the team was cached at, which the statement writes only at. */
  readonly base: Stamp;
  readonly runId: string;
  readonly seq: number;
  readonly token: string;
  /** Puts the cached team back as it was (the guess did not land). */
  readonly undo: () => void;
}

/** A COMMIT sent on a connection that was lost before its answer came: it may have landed. */
interface Unsure<T> {
  readonly txid: string;
  readonly done: Done<T>;
}

/**
 * Runs work on a team in one database transaction holding the team's row, after this
 * process's earlier work on the team (so its cache is used, not re-read); then caches the
 * team, and runs what follows the commit.
 *
 * A lost connection is weather: the transaction is tried again from the start, on a new
 * connection and the team read afresh (the work is the rules over the state it is given, so
 * it decides again), while the caller's watch lets it wait. A COMMIT whose answer was lost
 * is never sent again blindly: the next try first asks the database what became of its
 * transaction (`txid_status`): committed, and it is the answer; aborted, and the work is
 * done again; still in progress (its session is ending), and it asks again after a wait.
 */
export class LockedTeams {
  readonly cache = new Map<string, Cached>();
  /**
   * Teams whose last guess found the cache behind (another process commits too): their
   * commits lock first, until one finds the cache current again.
   */
  readonly #contended = new Set<string>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #ready: () => Promise<void>;
  readonly #watch: () => OutageWatch;

  constructor(pool: pg.Pool, s: string, ready: () => Promise<void>, watch: () => OutageWatch) {
    this.#pool = pool;
    this.#s = s;
    this.#ready = ready;
    this.#watch = watch;
  }

  /**
   * `work` in a transaction holding the team's row. With `guess`, when this process's cache
   * of the team was current at its last commit, the work is first done on the cache and sent
   * as one statement that writes only if the team is still at the cached version (one round
   * trip, no BEGIN, lock or COMMIT of their own); `guess` answers `undefined` (having changed
   * nothing) for work that must lock. A guess that finds the team moved is undone, the cache
   * caught up in the same round trip, and the work done again under the lock (guessing again
   * would race the other processes' commits with the whole client's work each time: under the
   * lock it is done once).
   */
  run<T>(
    name: string,
    work: (client: pg.PoolClient, team: LockedTeam | undefined, also: readonly unknown[]) => Promise<Done<T>>,
    guess?: (cached: Cached) => Guess<T> | undefined,
    also?: string,
  ): Promise<T> {
    // The caller's watch, taken now: the queue's callbacks need not run in its context.
    const watch = this.#watch();
    return this.#queued(name, async () => {
      const cached = guess && !this.#contended.has(name) ? this.cache.get(name) : undefined;
      const guessed = cached && guess?.(cached);
      if (cached && guessed) {
        // Taken out while in flight: an answer that never comes leaves no half-known state behind.
        this.cache.delete(name);
        const sent = await this.#send(name, guessed, cached, watch);
        if (sent === 'landed') return this.#landed(name, guessed.done);
        // Another process commits too: the next commits lock first (not for a fence no longer held).
        if (sent === 'moved') this.#contended.add(name);
      }
      return this.#transact(name, work, watch, also);
    });
  }

  /**
   * Sends a guess: whether it landed (asked after, when its answer was lost), or did not as
   * another commit `moved` the team first, or was `refused` with the team where it was (its
   * fence no longer held). One that did not land is undone; the statement after it in the same
   * text (and transaction) reads what the cache missed, unless the guess landed, and the cache
   * is caught up with it.
   */
  async #send<T>(
    name: string,
    guess: Guess<T>,
    cached: Cached,
    watch: OutageWatch,
  ): Promise<'landed' | 'moved' | 'refused'> {
    let results: pg.QueryResult[];
    try {
      await this.#ready();
      const landed = `EXISTS (SELECT 1 FROM ${this.#s}.events WHERE run_id = ${literal(guess.runId)}
        AND seq = ${guess.seq} AND commit_token = ${literal(guess.token)})`;
      results = (await this.#pool.query(
        `${guess.done.write}; ${readTeamSql(this.#s, name, guess.base, landed)}`,
      )) as unknown as pg.QueryResult[];
    } catch (error) {
      if (!connectionLost(error)) throw storeError(error);
      const landed = await storePatiently(watch, () => this.#landedGuess(name, guess));
      if (landed) return 'landed';
      guess.undo();
      this.cache.set(name, cached);
      return 'moved';
    }
    if ((results[0] as pg.QueryResult).rows.length > 0) return 'landed';
    guess.undo();
    const read = teamRead((results[1] as pg.QueryResult).rows, cached);
    if (!read) return 'refused';
    const { version, epoch } = read.row;
    this.cache.set(name, { state: teamAt(read, cached), version, epoch });
    return version === cached.version && epoch === cached.epoch ? 'refused' : 'moved';
  }

  /**
   * Whether a guess whose answer was lost landed. The team's row is first moved on from the
   * version the guess was made at, if it is still there: past that, the guess can never land
   * (it writes only at that version), and it landed only if its first event is in the log.
   * Moving the version writes nothing else (other caches find no row changed).
   */
  async #landedGuess<T>(name: string, guess: Guess<T>): Promise<boolean> {
    await this.#ready();
    const moved = await this.#pool.query(
      `UPDATE ${this.#s}.teams SET version = version + 1 WHERE name = $1 AND version = $2 AND epoch = $3`,
      [name, guess.base.version, guess.base.epoch],
    );
    if (moved.rowCount === 1) return false;
    const { rows } = await this.#pool.query(
      `SELECT 1 FROM ${this.#s}.events WHERE run_id = $1 AND seq = $2 AND commit_token = $3`,
      [guess.runId, guess.seq, guess.token],
    );
    return rows.length > 0;
  }

  /**
   * `read` over the team's last committed state, without its row's lock, after this process's
   * earlier work on the team: `undefined` when `read` wants to change something (it answers
   * `undefined` then: the caller runs it again under the lock) or there is no such team.
   * `read` runs on the cached state first; one statement then reads the team's row and what
   * the cache missed (nothing when it is current), and only when it missed something is `read`
   * run again, on the cache caught up.
   */
  read<R>(name: string, read: (state: TeamState) => R | undefined): Promise<R | undefined> {
    const watch = this.#watch();
    return this.#queued(name, async () => {
      const cached = this.cache.get(name);
      const early = cached && read(cached.state);
      if (cached && early === undefined) return undefined;
      const found = await storePatiently(watch, async () => {
        await this.#ready();
        return teamRead((await this.#pool.query(readTeamSql(this.#s, name, cached))).rows, cached);
      });
      if (!found) return undefined;
      const { version, epoch } = found.row;
      if (cached && cached.version === version && cached.epoch === epoch) return early;
      const state = teamAt(found, cached);
      this.cache.set(name, { state, version, epoch });
      return read(state);
    });
  }

  /** Runs `job` after this process's earlier work on the team. */
  #queued<T>(name: string, job: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(name) ?? Promise.resolve();
    const run = previous.then(job);
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

  /**
   * `work` in one transaction on a connection of the pool: BEGIN, the team's row locked, what
   * the cache missed read and the statement `also` (its rows given to `work`), in one round
   * trip; the work's write sent with the COMMIT.
   */
  async #transact<T>(
    name: string,
    work: (client: pg.PoolClient, team: LockedTeam | undefined, also: readonly unknown[]) => Promise<Done<T>>,
    watch: OutageWatch,
    also: string | undefined,
  ): Promise<T> {
    let unsure: Unsure<T> | undefined;
    const attempt = () =>
      this.#withClient(async (client): Promise<T> => {
        if (unsure) {
          const landed = await committed(client, unsure.txid);
          if (landed) return this.#landed(name, unsure.done);
          unsure = undefined;
        }
        const cached = this.cache.get(name);
        // Taken out while in use: a transaction that fails leaves no half-changed state behind.
        this.cache.delete(name);
        // Each statement of the text sees what committed before it: the read, what the lock waited for.
        const results = (await client.query(
          `BEGIN; SELECT txid_current()::text AS txid FROM ${this.#s}.teams WHERE name = ${literal(name)} FOR UPDATE;
           ${readTeamSql(this.#s, name, cached)}${also ? `; ${also}` : ''}`,
        )) as unknown as pg.QueryResult[];
        const read = teamRead((results[2] as pg.QueryResult).rows, cached);
        const team = read && { ...read.row, state: teamAt(read, cached) };
        // Nobody committed since this process did: its next commits may guess again.
        if (team && cached?.version === team.version && cached.epoch === team.epoch)
          this.#contended.delete(name);
        const done = await work(client, team, also ? (results[3] as pg.QueryResult).rows : []);
        // A transaction that locked no row (a team made now) is asked its id before COMMIT.
        const txid =
          (results[1] as pg.QueryResult<{ txid: string }>).rows[0]?.txid ?? (await currentTxid(client));
        await client.query(done.write ? `${done.write}; COMMIT` : 'COMMIT').catch((error: unknown) => {
          if (connectionLost(error)) unsure = { txid, done };
          throw error;
        });
        // Work that wrote nothing of the team leaves it as read.
        const next = done.next ?? (team && { state: team.state, version: team.version, epoch: team.epoch });
        return this.#landed(name, { ...done, next });
      });
    return storePatiently(watch, attempt);
  }

  /** `use` on a connection of the pool; on failure its transaction is rolled back, or the connection dropped. */
  async #withClient<T>(use: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.#ready();
    const client = await this.#pool.connect();
    let broken = false;
    try {
      return await use(client);
    } catch (error) {
      // A connection that fails its ROLLBACK is not given back to the pool.
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** The work's transaction committed: the team is cached as it left it, and what follows runs. */
  #landed<T>(name: string, done: Done<T>): T {
    if (done.next) this.cache.set(name, done.next);
    done.after?.();
    return done.value;
  }
}

async function currentTxid(client: pg.PoolClient): Promise<string> {
  const { rows } = await client.query<{ txid: string }>('SELECT txid_current()::text AS txid');
  return (rows[0] as { txid: string }).txid;
}

/** Whether the transaction `txid` committed (asked on another connection than its own). */
async function committed(client: pg.PoolClient, txid: string): Promise<boolean> {
  const { rows } = await client.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [
    txid,
  ]);
  const status = rows[0]?.status;
  if (status === 'committed') return true;
  if (status === 'aborted') return false;
  if (status === 'in progress') throw new CommitInDoubt(txid);
  // Only a transaction older than the database keeps track of has no status.
  throw new Error(`The database no longer knows whether transaction ${txid} committed`);
}
