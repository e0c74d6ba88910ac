import type { TeamEvent } from '../events/team-event-map.js';
import type { TeamEventListener } from './team-store.js';

/**
 * A store's in-process listeners by team. A throwing listener is reported and never
 * stops a commit's other listeners (the commit is already durable when they run).
 */
export class Subscribers {
  readonly #byTeam = new Map<string, Set<TeamEventListener>>();

  add(team: string, listener: TeamEventListener): () => void {
    let listeners = this.#byTeam.get(team);
    if (!listeners) {
      listeners = new Set();
      this.#byTeam.set(team, listeners);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** How many listeners the team has. */
  count(team: string): number {
    return this.#byTeam.get(team)?.size ?? 0;
  }

  publish(team: string, events: readonly TeamEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.#byTeam.get(team) ?? []) {
      try {
        listener(events);
      } catch (error) {
        console.error(`agent-teams: a subscriber of team ${team} threw:`, error);
      }
    }
  }
}
