import type pg from 'pg';
import type { TeamEvent } from '../../events/team-event-map.js';
import { Subscribers } from '../subscribers.js';
import type { TeamEventListener } from '../team-store.js';
import { type FeedSource, TeamFeed } from './feed.js';
import { Listener } from './listener.js';

/**
 * A PostgresStore's subscribers, by team, and how they hear of commits: this process's
 * directly, every process's through one listening connection (opened with the first
 * subscriber, closed with the last) whose notifications wake the team's feed.
 */
export class Subscriptions {
  readonly #config: pg.ClientConfig;
  readonly #where: { readonly s: string; readonly channel: string; readonly ready: () => Promise<void> };
  readonly #token: string;
  readonly #source: FeedSource;
  readonly #subscribers = new Subscribers();
  readonly #feeds = new Map<string, TeamFeed>();
  #listener: Listener | undefined;

  /** `token` is the store's, which its commits' notifications carry (it hears its own commits directly). */
  constructor(
    config: pg.ClientConfig,
    where: { readonly s: string; readonly channel: string; readonly ready: () => Promise<void> },
    token: string,
    source: FeedSource,
  ) {
    this.#config = config;
    this.#where = where;
    this.#token = token;
    this.#source = source;
  }

  /** The backend pid of this store's listening session while it has one registered. */
  get listenerPid(): number | null {
    return this.#listener?.pid ?? null;
  }

  add(team: string, listener: TeamEventListener): () => void {
    const remove = this.#subscribers.add(team, listener);
    if (!this.#feeds.has(team)) {
      const publish = (events: readonly TeamEvent[]) => this.#subscribers.publish(team, events);
      const feed = new TeamFeed(team, this.#source, publish);
      this.#feeds.set(team, feed);
      // Once registered, the team's commits NOTIFY: the feed catches up on what came before.
      this.#listener?.add(team, () => feed.wake());
    }
    this.#listener ??= new Listener(
      this.#config,
      { ...this.#where, teams: () => [...this.#feeds.keys()] },
      (commit) => {
        if (commit.runId && commit.from !== this.#token)
          this.#feeds.get(commit.team)?.notified(commit.runId, commit.seq);
      },
      () => {
        for (const feed of this.#feeds.values()) feed.wake();
      },
    );
    return () => {
      remove();
      if (this.#subscribers.count(team) > 0) return;
      this.#feeds.get(team)?.stop();
      this.#feeds.delete(team);
      if (this.#feeds.size === 0) void this.stop();
      else this.#listener?.remove(team);
    };
  }

  /** Passes on the events of a commit of this process (after its COMMIT). */
  own(team: string, runId: string | null, events: readonly TeamEvent[]): void {
    const feed = this.#feeds.get(team);
    if (feed) feed.own(runId, events);
    else this.#subscribers.publish(team, events);
  }

  /** Stops every feed and closes the listening connection. */
  async stop(): Promise<void> {
    for (const feed of this.#feeds.values()) feed.stop();
    this.#feeds.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.stop();
  }
}
