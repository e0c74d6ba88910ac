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
  readonly #channel: string;
  readonly #source: FeedSource;
  readonly #subscribers = new Subscribers();
  readonly #feeds = new Map<string, TeamFeed>();
  #listener: Listener | undefined;

  constructor(config: pg.ClientConfig, channel: string, source: FeedSource) {
    this.#config = config;
    this.#channel = channel;
    this.#source = source;
  }

  add(team: string, listener: TeamEventListener): () => void {
    const remove = this.#subscribers.add(team, listener);
    this.#listener ??= new Listener(
      this.#config,
      this.#channel,
      (commit) => {
        if (commit.runId) this.#feeds.get(commit.team)?.notified(commit.runId, commit.seq);
      },
      () => {
        for (const feed of this.#feeds.values()) feed.wake();
      },
    );
    if (!this.#feeds.has(team)) {
      const publish = (events: readonly TeamEvent[]) => this.#subscribers.publish(team, events);
      this.#feeds.set(team, new TeamFeed(team, this.#source, publish));
    }
    return () => {
      remove();
      if (this.#subscribers.count(team) > 0) return;
      this.#feeds.get(team)?.stop();
      this.#feeds.delete(team);
      if (this.#feeds.size === 0) void this.stop();
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
