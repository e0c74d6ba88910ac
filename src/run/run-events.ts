import type { TeamEvent } from '../events/team-event-map.js';

interface Reader {
  readonly queue: TeamEvent[];
  /** It asked for live text (`team:text-delta`). */
  readonly deltas: boolean;
  wake: (() => void) | undefined;
}

/**
 * Every event of one run as its loop folds them, for `run.events()`: each reader gets them
 * all from the first, then live, and its iteration ends once the run is over (after its last
 * `team:complete`). The events before a reader began are read back from the store's log (they
 * are not kept here: a long run's log would be held twice). Live-only events
 * (`team:text-delta`) reach the readers that asked for them and are reading when they happen,
 * and are not kept for later ones: a late reader sees what the log holds.
 */
export class RunEvents {
  readonly #readers = new Set<Reader>();
  /** The logged events up to `seq`, oldest first: the store's log of the run. */
  readonly #past: (seq: number) => Promise<readonly TeamEvent[]>;
  /** The seq of the last event folded. */
  #seq = 0;
  #closed = false;

  constructor(past: (seq: number) => Promise<readonly TeamEvent[]>) {
    this.#past = past;
  }

  push(event: TeamEvent): void {
    this.#seq = event.seq;
    this.live(event);
  }

  /** An event for the readers reading now only. */
  live(event: TeamEvent): void {
    for (const reader of this.#readers) {
      if (event.type === 'team:text-delta' && !reader.deltas) continue;
      reader.queue.push(event);
      this.#wake(reader);
    }
  }

  /** Whether a reader that asked for live text is reading. */
  deltasRead(): boolean {
    for (const reader of this.#readers) if (reader.deltas) return true;
    return false;
  }

  /** No more events: readers end after the ones they have not seen yet. */
  close(): void {
    this.#closed = true;
    for (const reader of this.#readers) this.#wake(reader);
  }

  /**
   * Every event from the first, then live; with `deltas`, live text too. The reader counts
   * from this call on (not from its first read), so turns that start before it reads stream
   * for it too.
   */
  read(deltas: boolean): AsyncGenerator<TeamEvent, void, undefined> {
    const reader: Reader = { queue: [], deltas, wake: undefined };
    this.#readers.add(reader);
    return this.#drain(reader, this.#seq);
  }

  async *#drain(reader: Reader, folded: number): AsyncGenerator<TeamEvent, void, undefined> {
    try {
      // What was folded before the reader came, from the log; what comes after waits in its queue.
      if (folded > 0) for (const event of await this.#past(folded)) yield event;
      for (;;) {
        // A resumed run's log holds the `team:complete` of an earlier stop: only the close ends it.
        while (reader.queue.length > 0) {
          // Taken in slices, not one shift at a time: a long run's replay stays linear.
          const batch = reader.queue.splice(0);
          for (const event of batch) yield event;
        }
        if (this.#closed) return;
        await new Promise<void>((resolve) => {
          reader.wake = resolve;
        });
      }
    } finally {
      this.#readers.delete(reader);
    }
  }

  #wake(reader: Reader): void {
    const wake = reader.wake;
    reader.wake = undefined;
    wake?.();
  }
}
