import pg from 'pg';

/** What a commit's notification carries: ids only (the events are read from the log), and which store sent it. */
export interface Commit {
  readonly team: string;
  readonly runId: string | null;
  readonly seq: number;
  /** The committing store's token: a store hears its own commits directly, not from here. */
  readonly from: string;
}

const RETRY_MS = [100, 500, 2000, 5000];

/**
 * A dedicated connection that LISTENs to a schema's channel and passes each commit's ids
 * on. A commit NOTIFYs only when a listening session of another store is registered for its
 * team (the `listeners` table, a row per team and session), so each time it is listening
 * (first, and after a lost connection, connected again with backoff) it registers its teams
 * and then `onListening` lets the feeds catch up from the log: a notification sent while
 * nobody listened is lost, its events are not.
 *
 * Why a commit cannot miss a registration: a team is registered by a committed INSERT and
 * then an update of the team's row that moves its version, which waits for the transaction
 * holding the row. A commit takes that row's lock before its write statement, which looks for
 * listeners: a commit that locked the row after the INSERT committed sees it and NOTIFYs; one
 * that held the lock before is over when the registration's update returns, so the catch-up
 * that follows reads its events. A commit sent as one statement with no lock held first (a
 * guess, locked.ts) looks for listeners as its statement began, but writes only at the version
 * it was made at: one that began before the INSERT committed finds the version moved and is
 * done again under the lock. A session that ended leaves its rows (at worst a NOTIFY nobody hears)
 * until the next registration removes the rows of sessions the server no longer has.
 * Its retry timer keeps the process alive: a listener lives while someone subscribes (a
 * run's loop waiting for its workers' outcomes, a worker waiting for turns), and while it
 * is connected its connection does the same; between two connections nothing else may.
 */
export class Listener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #onCommit: (commit: Commit) => void;
  readonly #onListening: () => void;
  readonly #s: string;
  readonly #teams: () => readonly string[];
  readonly #ready: () => Promise<void>;
  #client: pg.Client | undefined;
  /** The backend pid of the session, once it registered its teams (its rows name it). */
  #pid: number | null = null;
  /** Whether it listens, its teams registered: a team subscribed to now is registered at once. */
  #listening = false;
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;
  #stopped = false;

  constructor(
    config: pg.ClientConfig,
    where: {
      readonly s: string;
      readonly channel: string;
      readonly teams: () => readonly string[];
      /** The store's tables are there (migrated). */
      readonly ready: () => Promise<void>;
    },
    onCommit: (commit: Commit) => void,
    onListening: () => void,
  ) {
    this.#config = config;
    this.#channel = where.channel;
    this.#s = where.s;
    this.#teams = where.teams;
    this.#ready = where.ready;
    this.#onCommit = onCommit;
    this.#onListening = onListening;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client(this.#config);
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => {
      try {
        this.#onCommit(JSON.parse(message.payload ?? '') as Commit);
      } catch {
        // Not one of ours: ignored.
      }
    });
    this.#client = client;
    try {
      await client.connect();
      await this.#ready();
      const registered = new Set<string>();
      let pid: number | undefined;
      // Registers the teams not registered yet (all, the first time): subscribed to meanwhile.
      const registerNew = async () => {
        for (;;) {
          const teams = this.#teams().filter((team) => !registered.has(team));
          if (teams.length === 0 && pid !== undefined) return pid;
          pid = await this.#register(client, teams);
          for (const team of teams) registered.add(team);
        }
      };
      this.#pid = await registerNew();
      // After registering: a commit notified before it listened is in the log by the catch-up below.
      await client.query(`LISTEN "${this.#channel}"`);
      // Teams subscribed to while it began listening; nothing is awaited from the last look to `#listening`.
      do await registerNew();
      while (this.#teams().some((team) => !registered.has(team)));
      if (this.#stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.#failures = 0;
      this.#listening = true;
      this.#onListening();
    } catch {
      this.#lost(client);
    }
  }

  /** This store's listening session, once registered (a commit of this store need not NOTIFY it), or null. */
  get pid(): number | null {
    return this.#pid;
  }

  /**
   * Registers the session for `teams` (see the class's comment for why in two statements);
   * answers its backend pid. Rows of sessions the server no longer has go first.
   */
  async #register(client: pg.Client, teams: readonly string[]): Promise<number> {
    const { rows } = await client.query<{ pid: number }>(
      `WITH gone AS (
         DELETE FROM ${this.#s}.listeners l WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.pid)),
       added AS (
         INSERT INTO ${this.#s}.listeners (team, pid) SELECT unnest($1::text[]), pg_backend_pid() ON CONFLICT DO NOTHING)
       SELECT pg_backend_pid() AS pid`,
      [teams],
    );
    await client.query(`UPDATE ${this.#s}.teams SET version = version + 1 WHERE name = ANY($1::text[])`, [
      teams,
    ]);
    return (rows[0] as { pid: number }).pid;
  }

  /**
   * Registers one more team on the listening session, then `then` (the team's feed catches
   * up). Without a session now, the next one registers it (and every feed catches up then).
   */
  add(team: string, then: () => void): void {
    const client = this.#client;
    if (!client || !this.#listening) return;
    this.#register(client, [team]).then(then, () => {
      // The session is lost: its successor registers every team.
    });
  }

  /** The team has no subscriber left here: its notifications are no longer wanted (a row left behind costs a NOTIFY). */
  remove(team: string): void {
    const client = this.#client;
    if (!client || !this.#listening) return;
    client
      .query(`DELETE FROM ${this.#s}.listeners WHERE team = $1 AND pid = pg_backend_pid()`, [team])
      .catch(() => {});
  }

  #lost(client: pg.Client): void {
    if (this.#stopped || this.#client !== client) return;
    this.#client = undefined;
    this.#pid = null;
    this.#listening = false;
    client.end().catch(() => {});
    const delay = RETRY_MS[Math.min(this.#failures++, RETRY_MS.length - 1)];
    this.#timer = setTimeout(() => void this.#connect(), delay);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    this.#pid = null;
    this.#listening = false;
    // Its rows go with it (else the next registration of any process removes them).
    await client?.query(`DELETE FROM ${this.#s}.listeners WHERE pid = pg_backend_pid()`).catch(() => {});
    await client?.end().catch(() => {});
  }
}
