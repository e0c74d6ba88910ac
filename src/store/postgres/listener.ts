import pg from 'pg';

/** What a commit's notification carries: ids only; the events are read from the log. */
export interface Commit {
  readonly team: string;
  readonly runId: string | null;
  readonly seq: number;
}

const RETRY_MS = [100, 500, 2000, 5000];

/**
 * A dedicated connection that LISTENs to a schema's channel and passes each commit's ids
 * on. Each time it is listening (first, and after a lost connection, connected again with
 * backoff) `onListening` lets the feeds catch up from the log: a notification sent while
 * nobody listened is lost, its events are not.
 * Its retry timer keeps the process alive: a listener lives while someone subscribes (a
 * run's loop waiting for its workers' outcomes, a worker waiting for turns), and while it
 * is connected its connection does the same; between two connections nothing else may.
 */
export class Listener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #onCommit: (commit: Commit) => void;
  readonly #onListening: () => void;
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;
  #stopped = false;

  constructor(
    config: pg.ClientConfig,
    channel: string,
    onCommit: (commit: Commit) => void,
    onListening: () => void,
  ) {
    this.#config = config;
    this.#channel = channel;
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
      await client.query(`LISTEN "${this.#channel}"`);
      if (this.#stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.#failures = 0;
      this.#onListening();
    } catch {
      this.#lost(client);
    }
  }

  #lost(client: pg.Client): void {
    if (this.#stopped || this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => {});
    const delay = RETRY_MS[Math.min(this.#failures++, RETRY_MS.length - 1)];
    this.#timer = setTimeout(() => void this.#connect(), delay);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
