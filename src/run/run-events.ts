import type { TeamEvent } from '../events/team-event-map.js';

/**
 * Every event of one run as its loop folds them, for `run.events()`: each reader gets them
 * all from the first, then live, and its iteration ends once the run is over (after its last `team:complete`).
 */
export class RunEvents {
  readonly #events: TeamEvent[] = [];
  #closed = false;
  #wake: (() => void)[] = [];

  push(event: TeamEvent): void {
    this.#events.push(event);
    this.#notify();
  }

  /** No more events: readers end after the ones they have not seen yet. */
  close(): void {
    this.#closed = true;
    this.#notify();
  }

  async *read(): AsyncGenerator<TeamEvent, void, undefined> {
    let next = 0;
    for (;;) {
      // A resumed run's log holds the `team:complete` of an earlier stop: only the close ends it.
      while (next < this.#events.length) yield this.#events[next++] as TeamEvent;
      if (this.#closed) return;
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  #notify(): void {
    const waiting = this.#wake;
    this.#wake = [];
    for (const resolve of waiting) resolve();
  }
}
