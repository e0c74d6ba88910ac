import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { checkName } from '../../errors/names.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import { type LiveRuns, liveRunsOf } from '../live-runs.js';
import { callerWatch, OutageWatch, withOutageWatch } from '../outage-watch.js';
import { Renewals } from '../run-lease.js';
import { canResume, type RunListing } from '../run-record.js';
import { storeClosed } from '../store-closed.js';
import { checkStartOptions } from '../store-options.js';
import {
  checkAfterSeq,
  checkRunId,
  describeTeam,
  infoOf,
  newRunId,
  requireTeam,
  type StoredInfo,
  sameSetup,
} from '../team-info.js';
import { teamState, withInfo } from '../team-state.js';
import type {
  ReadEventsOptions,
  ResumedRun,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
  TransactOptions,
} from '../team-store.js';
import { runRead, runTransaction } from '../transaction.js';
import { type CommitContext, commitOf, guessOf } from './commit.js';
import {
  checkFence,
  dropFences,
  type FencedTurn,
  fenceSql,
  renewFence,
  type StoreTransaction,
  storeTransaction,
  type TurnFence,
  takeFence,
} from './fences.js';
import { type Cached, type Done, LockedTeams } from './locked.js';
import { checkPostgresStoreOptions, type PostgresStoreOptions } from './options.js';
import { storePatiently } from './reconnect.js';
import {
  clearRunner,
  insertRun,
  listRuns,
  readRun,
  refuseIfRunElsewhere,
  renewLease,
  takeRun,
} from './runs.js';
import { channelOf, migrate, quoteSchema } from './schema.js';
import { storeError } from './store-error.js';
import { parseStoredJson } from './stored-json.js';
import { Subscriptions } from './subscriptions.js';
import { insertTeam, writeInfo } from './write.js';

// pg's type ids of json and jsonb.
const JSON_TYPES: ReadonlySet<number> = new Set([114, 3802]);

/** pg's parser of a column's type: JSON read back decoded (see stored-json.ts), the rest as pg parses it. */
const storedJsonParser = ((oid: number, format?: 'text' | 'binary') =>
  JSON_TYPES.has(oid) && format !== 'binary'
    ? parseStoredJson
    : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

/**
 * How long a call made outside any run waits for the database (a command, a script's
 * `transact`): long enough for a reset or a restarted pooler, short enough to say so soon.
 * A run waits its team's `storeOutageMs`.
 */
const BARE_OUTAGE_MS = 10_000;

/** How long opening a connection may take before it counts as lost. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The `application_name` of the store's connections (pg-boss's are `agent-teams boss <schema>`). */
const applicationNameOf = (schema: string) => `agent-teams ${schema}`.slice(0, 63);

/**
 * Keeps teams in PostgreSQL, for many processes and machines. A transaction that only reads
 * runs on this process's cache of the team, once one statement has read the team's row and
 * whatever the cache missed (nothing when it is current), and takes no lock; one that changes
 * something runs in a database transaction that locks the team's row (`SELECT … FOR UPDATE`,
 * sent with its BEGIN and the read that brings the cache up to date, in one round trip), runs
 * the same rules as every store, and sends with its COMMIT one statement that writes only the
 * changed tasks and inbox messages, appends the commit's events and NOTIFYs their ids when
 * another store's session listens to the team; subscribers in every process read them from
 * the log. While no other process commits on the team, a change is made on the cache and sent
 * as that one statement alone, writing only if the team is still at the cached version (and,
 * for a turn on a worker, only while its attempt holds the turn): one round trip a commit,
 * the row locked only inside the server. One that finds the team moved reads, in the same
 * round trip, what the cache missed, and is done again under the lock.
 * The store makes its tables itself (see `schema.ts`). A lost connection is tried again, a
 * COMMIT whose answer was lost is asked after (see `locked.ts`, `reconnect.ts`), and a call
 * waits for a database out of reach as its caller's `OutageWatch` says.
 *
 * @example
 * const store = new PostgresStore({ connectionString: 'postgres://localhost/teams' });
 * await store.createTeam('newsroom', { lead: 'editor', members: ['writer'] });
 * const task = await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
 */
export class PostgresStore implements TeamStore {
  /** The schema its tables live in. */
  readonly schema: string;
  /** The database it connects to. */
  readonly connectionString: string;
  readonly #s: string;
  readonly #pool: pg.Pool;
  readonly #config: pg.ClientConfig;
  readonly #now: () => Date;
  readonly #live: LiveRuns;
  readonly #renewals = new Renewals();
  readonly #teams: LockedTeams;
  readonly #subscriptions: Subscriptions;
  /** How long calls wait for the database when their caller set no watch (see `callerWatch`). */
  readonly #bare = new OutageWatch(BARE_OUTAGE_MS);
  /** Names this store in its commits' notifications: it hears its own commits directly. */
  readonly #token = randomUUID();
  #migrated: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions) {
    checkPostgresStoreOptions(options);
    this.schema = options.schema ?? 'agent_teams';
    this.connectionString = options.connectionString;
    this.#s = quoteSchema(this.schema);
    this.#config = {
      connectionString: options.connectionString,
      // Named for its schema in pg_stat_activity, so an operator (or a test) can tell whose it is.
      application_name: applicationNameOf(this.schema),
      // A connection that does not open in this time is a lost one (tried again, with backoff).
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    };
    // Idle connections let the process exit.
    this.#pool = new pg.Pool({
      ...this.#config,
      // JSON columns are read back decoded (see stored-json.ts).
      types: { getTypeParser: storedJsonParser },
      max: options.poolSize ?? 10,
      allowExitOnIdle: true,
      // Set for the session, so it costs no round trip per transaction.
      ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
    });
    // A lost connection is its query's error (tried again, see reconnect.ts), never the
    // process's: an idle client's is the pool's, a client's in use is its own (between its
    // queries no one else would hear it, and an unheard 'error' ends the process).
    this.#pool.on('error', () => {});
    this.#pool.on('connect', (client) => client.on('error', () => {}));
    this.#now = options.now ?? (() => new Date());
    const key = `${options.connectionString}#${this.schema}`;
    const where = { s: this.#s, channel: channelOf(this.schema), ready: () => this.#ready() };
    this.#subscriptions = new Subscriptions(this.#config, where, this.#token, {
      // The feeds read for every subscriber, whoever subscribed first: under no caller's watch.
      current: async (team) => {
        const { rows } = await this.#query<{ info: TeamInfo; event_seq: number }>(
          `SELECT info, event_seq FROM ${this.#s}.teams WHERE name = $1`,
          [team],
          this.#bare,
        );
        return rows[0] && { runId: rows[0].info.runId, seq: rows[0].event_seq };
      },
      read: (runId, afterSeq) => this.#read(runId, afterSeq, this.#bare),
    });
    this.#live = liveRunsOf(`postgres:${key}`);
    this.#teams = new LockedTeams(
      this.#pool,
      this.#s,
      () => this.#ready(),
      () => this.#watch(),
    );
  }

  async createTeam(name: string, setup: TeamSetup): Promise<TeamInfo> {
    checkName('team', name);
    for (;;) {
      const made = await this.#teams.run(name, async (client, row): Promise<Done<TeamInfo | undefined>> => {
        const info = describeTeam(name, setup, row?.info, this.#now(), randomUUID);
        if (!row) {
          // Another process may make it first: then this one starts again and finds it.
          if (!(await insertTeam(client, this.#s, info))) return { value: undefined };
          return { value: info, next: { state: teamState(info), version: 1, epoch: 0 } };
        }
        if (sameSetup(row.info, info)) return { value: row.info };
        await this.#refuseIfLive(client, row.info);
        const state = withInfo(row.state, info);
        return {
          value: info,
          next: {
            state,
            ...(await writeInfo(client, this.#s, row, info, row.eventSeq, { empty: false, newRun: false })),
          },
        };
      });
      if (made) return made;
    }
  }

  async getTeam(name: string): Promise<TeamInfo | undefined> {
    checkName('team', name);
    const { rows } = await this.#query<{ info: StoredInfo }>(
      `SELECT info FROM ${this.#s}.teams WHERE name = $1`,
      [name],
    );
    return rows[0] && infoOf(rows[0].info);
  }

  async listTeams(): Promise<TeamInfo[]> {
    const { rows } = await this.#query<{ info: StoredInfo }>(`SELECT info FROM ${this.#s}.teams`, []);
    return rows.map((row) => infoOf(row.info)).sort((a, b) => a.name.localeCompare(b.name));
  }

  transact<T>(name: string, fn: (rules: TeamRules) => T, options: TransactOptions = {}): Promise<T> {
    return this.transactWith(name, fn, options);
  }

  /**
   * `transact`, doing more in the same database transaction (for turns on workers): `fence`
   * refuses it (`stale-turn`) unless that attempt holds its turn; `alongside` runs before COMMIT;
   * `committed` as for `transact`.
   * @internal
   */
  async transactWith<T>(
    name: string,
    fn: (rules: TeamRules) => T,
    extra: TransactOptions & {
      readonly fence?: TurnFence;
      readonly alongside?: (tx: StoreTransaction, value: T) => Promise<void>;
    },
  ): Promise<T> {
    checkName('team', name);
    if (!extra.alongside) {
      // A transaction that only reads runs on the last committed state, without the row's lock
      // (an attempt's too: only its writes need it to hold its turn).
      const read = await this.#teams.read(name, (state) => runRead(state, fn, this.#now));
      if (read && 'error' in read) throw read.error;
      if (read) {
        extra.committed?.([]);
        return read.value;
      }
    }
    const context = this.#commitContext(name, extra.committed);
    const guess = extra.alongside ? undefined : (cached: Cached) => guessOf(context, cached, fn, extra.fence);
    return this.#teams.run(
      name,
      async (client, found, fence): Promise<Done<T>> => {
        const row = requireTeam(name, found);
        if (extra.fence) checkFence(fence, extra.fence);
        const { state } = row;
        const { undo, ...committed } = runTransaction(state, fn, this.#now);
        await extra.alongside?.(storeTransaction(client, this.#s), committed.value);
        if (committed.changed.length === 0 && committed.drafts.length === 0)
          return {
            value: committed.value,
            next: { state, version: row.version, epoch: row.epoch },
            after: () => extra.committed?.([]),
          };
        // Its statement is sent with the COMMIT, in one round trip.
        return commitOf(context, state, row, committed, null);
      },
      guess,
      // The fence is read (and held) in the round trip that locks the team.
      extra.fence && fenceSql(this.#s, extra.fence),
    );
  }

  /** How this store's commits on the team are written and published. */
  #commitContext(name: string, committed: TransactOptions['committed']): CommitContext {
    return {
      s: this.#s,
      channel: channelOf(this.schema),
      from: this.#token,
      listenerPid: () => this.#subscriptions.listenerPid,
      now: this.#now,
      published: (runId, events) => {
        this.#published(name, runId, events);
        committed?.(events);
      },
    };
  }

  async startRun(name: string, options: { fresh?: boolean } = {}): Promise<TeamInfo> {
    const fresh = checkStartOptions(options);
    checkName('team', name);
    return this.#teams.run(name, async (client, found): Promise<Done<TeamInfo>> => {
      const row = requireTeam(name, found);
      const { state } = row;
      await this.#refuseIfLive(client, state.info);
      const now = this.#now();
      const runId = newRunId(name, now);
      const info: TeamInfo = { ...state.info, runId, updatedAt: now.toISOString() };
      await insertRun(client, this.#s, { runId, team: name, teamId: info.teamId, startedAt: info.updatedAt });
      const next = fresh ? teamState(info) : withInfo(state, info, { requests: false });
      next.eventSeq = 0;
      const stamp = await writeInfo(client, this.#s, row, info, 0, { empty: fresh, newRun: true });
      return { value: info, next: { state: next, ...stamp }, after: () => this.#enter(name, runId) };
    });
  }

  async resumeRun(name: string): Promise<ResumedRun | undefined> {
    checkName('team', name);
    return this.#teams.run(name, async (client, row) => {
      const { info } = requireTeam(name, row);
      const runId = info.runId;
      if (!runId || (await readRun(client, this.#s, runId))?.teamId !== info.teamId)
        return { value: undefined };
      const events = await this.#log(client, runId, 0);
      if (!canResume(events)) return { value: undefined };
      await this.#refuseIfLive(client, info);
      await takeRun(client, this.#s, runId);
      // Turns of the run's past on workers may still be running: none of them writes again.
      await dropFences(client, this.#s, runId);
      return { value: { info, events }, after: () => this.#enter(name, runId) };
    });
  }

  /**
   * A worker's attempt at a turn takes its fence, with a lease: the attempt's fence, or
   * `undefined` when the turn is not its to run (another attempt holds it, or it is over).
   * @internal
   */
  async takeFence(name: string, turn: FencedTurn): Promise<TurnFence | undefined> {
    checkName('team', name);
    // One statement on the fence's row, outside the team's lock (a commit that checks the fence
    // holds its row until it ends). Its answer lost, it is tried again and finds the turn taken:
    // then this attempt does not run it, and its lease lapses for the turn to be queued again.
    const attempt = await this.#patiently(() => takeFence(this.#pool, this.#s, turn));
    return attempt === undefined ? undefined : { ...turn, attempt };
  }

  /** Renews an attempt's lease on its turn (outside the team's lock: one row); false once it lost the turn.
   * @internal
   */
  async renewFence(fence: TurnFence): Promise<boolean> {
    // One try: a renewal that fails is made again at the next tick, well within the lease.
    await this.#ready();
    return renewFence(this.#pool, this.#s, fence).catch((error) => Promise.reject(storeError(error)));
  }

  /** Fences out the running attempt at the agent's turn: the run no longer waits for it.
   * @internal
   */
  dropFence(name: string, runId: string, agent: string): Promise<void> {
    checkName('team', name);
    return this.#teams.run(name, async (client) => ({
      value: await dropFences(client, this.#s, runId, agent),
    }));
  }

  /** This process runs the run: it renews the run's lease until it leaves it (or the run ends). */
  #enter(name: string, runId: string): void {
    this.#live.enter(name, runId);
    this.#renewals.start(runId, async () => {
      await this.#ready();
      return renewLease(this.#pool, this.#s, runId);
    });
  }

  async listRuns(options: { team?: string; runId?: string } = {}): Promise<RunListing[]> {
    if (options.team !== undefined) checkName('team', options.team);
    if (options.runId !== undefined) checkRunId(options.runId);
    return this.#patiently(() => listRuns(this.#pool, this.#s, options));
  }

  async leaveRun(name: string, runId: string): Promise<void> {
    checkName('team', name);
    checkRunId(runId);
    this.#renewals.stop(runId);
    this.#live.leave(name, runId);
    await this.#patiently(() => clearRunner(this.#pool, this.#s, runId));
  }

  async readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]> {
    const afterSeq = checkAfterSeq(options);
    return this.#read(checkRunId(runId), afterSeq, this.#watch());
  }

  /**
   * Listens to the team's committed events, this process's and every other's: a
   * notification wakes the team's feed, which reads the new events from the log.
   */
  subscribe(name: string, listener: TeamEventListener): () => void {
    if (this.#closed) throw storeClosed('PostgresStore');
    checkName('team', name);
    return this.#subscriptions.add(name, listener);
  }

  /**
   * Runs `fn` with `watch` as the watch of every call it makes on this store, down to those of
   * the turns and timers it starts: how long each waits for the database while it cannot be
   * reached, and whom that is told. A call under no watch waits 10 s.
   * @internal
   */
  withOutageWatch<T>(watch: OutageWatch, fn: () => T): T {
    return withOutageWatch(watch, fn);
  }

  /** Stops listening, waits for this store's work, and ends its connections; later calls are refused (`store-closed`). Idempotent. */
  close(): Promise<void> {
    this.#renewals.stopAll();
    this.#closed ??= (async () => {
      await this.#subscriptions.stop();
      await this.#teams.idle();
      await this.#pool.end();
    })();
    return this.#closed;
  }

  #published(name: string, runId: string | null, events: TeamEvent[]): void {
    this.#live.settle(name, events);
    // A run that ended is no longer run: its lease lapses.
    for (const event of events)
      if (event.type === 'team:complete' && event.runId) this.#renewals.stop(event.runId);
    this.#subscriptions.own(name, runId, events);
  }

  /** Throws `team-busy` while the team's current run is live, in this process or another. */
  async #refuseIfLive(client: pg.PoolClient, info: TeamInfo): Promise<void> {
    this.#live.refuse(info.name, info.runId);
    await refuseIfRunElsewhere(client, this.#s, info);
  }

  /** The run's events after `afterSeq`, read on their own (from the pool, as `watch` lets them wait). */
  #read(runId: string, afterSeq: number, watch: OutageWatch): Promise<TeamEvent[]> {
    return this.#patiently(() => this.#log(this.#pool, runId, afterSeq), watch);
  }

  /** The run's events after `afterSeq`, in a transaction (`client`) or not. */
  async #log(db: pg.Pool | pg.PoolClient, runId: string, afterSeq: number): Promise<TeamEvent[]> {
    const { rows } = await db.query<{ body: TeamEvent }>(
      `SELECT body FROM ${this.#s}.events WHERE run_id = $1 AND seq > $2 ORDER BY seq`,
      [runId, afterSeq],
    );
    return rows.map((row) => row.body);
  }

  #query<R extends pg.QueryResultRow>(
    sql: string,
    values: unknown[],
    watch = this.#watch(),
  ): Promise<pg.QueryResult<R>> {
    return this.#patiently(() => this.#pool.query<R>(sql, values), watch);
  }

  /** One statement outside a team's transaction (each is safe to run twice), tried again as `watch` lets it wait. */
  #patiently<T>(statement: () => Promise<T>, watch = this.#watch()): Promise<T> {
    return storePatiently(watch, async () => {
      await this.#ready();
      return statement();
    });
  }

  /** The watch of the call being made: its caller's (a run's, a worker turn's), else the store's own. */
  #watch(): OutageWatch {
    return callerWatch() ?? this.#bare;
  }

  /** Migrates the schema once per store; a failed attempt is tried again by the next call. */
  async #ready(): Promise<void> {
    if (this.#closed) throw storeClosed('PostgresStore');
    this.#migrated ??= migrate(this.#pool, this.schema).catch((error) => {
      this.#migrated = undefined;
      throw storeError(error);
    });
    return this.#migrated;
  }
}
