import type { TeamEvent } from '../../events/team-event-map.js';

/** What the feed needs of the store: the team's current run and where its log stands, and the log. */
export interface FeedSource {
  current(team: string): Promise<{ runId: string | null; seq: number } | undefined>;
  read(runId: string, afterSeq: number): Promise<TeamEvent[]>;
}

// Runs whose published seq is kept: the current one, and the few before it whose own
// commits may still be on their way to the subscribers.
const RUNS_KEPT = 4;

/**
 * What a PostgresStore has published to the subscribers of one team, for as long as it has
 * any: per run, the seq of the last event published. This process's commits and the
 * notifications of every process's commits both go through it, so every event reaches the
 * subscribers once, in seq order. A notification is only a wake-up: the events are read
 * from the log after the last one published, so a lost notification costs latency, never
 * an event.
 */
export class TeamFeed {
  readonly #team: string;
  readonly #source: FeedSource;
  readonly #publish: (events: readonly TeamEvent[]) => void;
  readonly #published = new Map<string, number>();
  /** Reads of the log, one after another (the first finds where the subscribers start). */
  #chain: Promise<void>;
  #stopped = false;

  constructor(team: string, source: FeedSource, publish: (events: readonly TeamEvent[]) => void) {
    this.#team = team;
    this.#source = source;
    this.#publish = publish;
    // The subscribers start after everything logged so far; a commit of this process that
    // comes first has already set where (see `own`), and a start never moves it back.
    this.#chain = this.#source.current(team).then(
      (now) => {
        if (now?.runId && !this.#published.has(now.runId)) this.#advance(now.runId, now.seq);
      },
      () => {},
    );
  }

  /** Publishes the events of a commit of this process, unless a wake-up published them first. */
  own(runId: string | null, events: readonly TeamEvent[]): void {
    const last = events.at(-1)?.seq;
    if (last === undefined || runId === null) {
      this.#publish(events);
      return;
    }
    const seq = this.#published.get(runId);
    if (seq === undefined || events[0]?.seq === seq + 1) {
      // Next in line (or the first this feed hears of the run): publish at once.
      this.#advance(runId, last);
      this.#publish(seq === undefined ? events : events.filter((event) => event.seq > seq));
    } else if (last > seq) {
      // Another process's events came between: the log has them all, in order.
      this.wake(runId);
    }
  }

  /** A commit was notified: catch up from the log, unless its events were published already. */
  notified(runId: string, seq: number): void {
    if ((this.#published.get(runId) ?? 0) < seq) this.wake(runId);
  }

  /** Something may have been missed (a connection came back): catch up from the log. */
  wake(runId?: string): void {
    this.#chain = this.#chain
      .then(() => this.#catchUp(runId))
      .catch(() => {
        // The database is unreachable for now: the next wake-up reads again from where it stood.
      });
  }

  stop(): void {
    this.#stopped = true;
  }

  async #catchUp(notified: string | undefined): Promise<void> {
    if (this.#stopped) return;
    const runId = notified ?? (await this.#source.current(this.#team))?.runId;
    if (!runId) return;
    const events = await this.#source.read(runId, this.#published.get(runId) ?? 0);
    // This process's own commits may have been published while the log was read.
    const after = this.#published.get(runId) ?? 0;
    const fresh = events.filter((event) => event.seq > after);
    const last = fresh.at(-1)?.seq;
    if (last === undefined || this.#stopped) return;
    this.#advance(runId, last);
    this.#publish(fresh);
  }

  #advance(runId: string, seq: number): void {
    this.#published.delete(runId);
    this.#published.set(runId, seq);
    if (this.#published.size > RUNS_KEPT)
      this.#published.delete(this.#published.keys().next().value as string);
  }
}
