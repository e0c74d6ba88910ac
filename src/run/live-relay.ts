import type { TeamEvent, TeamEventDraft } from '../events/team-event-map.js';

/** What a live event is stamped with: the run's, and the seq of the last event folded before it. */
interface Folded {
  readonly team: string;
  readonly runId: string | null;
  readonly seq: number;
}

/**
 * Passes live-only events (text as the model streams it) on in order with the committed
 * ones: while a commit the store announced is not folded yet, they wait for it, so a turn's
 * text never shows up before the tool result it followed.
 */
export class LiveRelay {
  readonly #state: () => Folded;
  readonly #deliver: (event: TeamEvent) => void;
  readonly #held: TeamEventDraft[] = [];
  #announced = 0;
  #folded = 0;

  constructor(state: () => Folded, deliver: (event: TeamEvent) => void) {
    this.#state = state;
    this.#deliver = deliver;
  }

  /** The store told of a commit (ours or another process's). */
  announced(): void {
    this.#announced++;
  }

  /** Taken as a catch-up starts: it folds every commit announced so far. */
  mark(): number {
    return this.#announced;
  }

  /** A catch-up that started at `mark` is done: what waited for it goes out. */
  folded(mark: number): void {
    this.#folded = Math.max(this.#folded, mark);
    if (this.#folded < this.#announced) return;
    for (const draft of this.#held.splice(0)) this.#stamped(draft);
  }

  /** An event about the run itself (the store is out of reach): out at once, ahead of what waits for a catch-up. */
  now(draft: TeamEventDraft): void {
    this.#stamped(draft);
  }

  emit(draft: TeamEventDraft): void {
    if (this.#folded < this.#announced || this.#held.length > 0) this.#held.push(draft);
    else this.#stamped(draft);
  }

  #stamped(draft: TeamEventDraft): void {
    const { team, runId, seq } = this.#state();
    this.#deliver({ ...draft, timestamp: new Date().toISOString(), team, runId, seq } as TeamEvent);
  }
}
