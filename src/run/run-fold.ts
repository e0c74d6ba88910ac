import type { TeamEvent } from '../events/team-event-map.js';
import { applyEvent } from '../fold/apply-event.js';
import { emptyRunState, type RunState } from '../fold/run-state.js';
import type { LiveRelay } from './live-relay.js';

/** A wait of a caller of the run's handle, until the run's fold says so (a member departed). */
interface Waiter {
  readonly until: (state: RunState) => boolean;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** What the fold needs of its run: its log, its live relay, and who is told of each event folded. */
export interface RunFoldOptions {
  /** The run's events past `afterSeq`, from the store's log. */
  readonly read: (afterSeq: number) => Promise<readonly TeamEvent[]>;
  readonly relay: LiveRelay;
  /** Told of each event as it is folded; `live` from the run's start or resume on (not its past). */
  readonly folded: (event: TeamEvent, live: boolean) => void;
}

/**
 * The run's state as its log says, kept by the run's loop (its one writer): the loop's own
 * commits are folded as the store answers them, other processes' as the store's subscription
 * passes them on, and the log is read past a gap. Waits on the state settle as it folds.
 */
export class RunFold {
  readonly state: RunState = emptyRunState();
  readonly #options: RunFoldOptions;
  readonly #waiters = new Set<Waiter>();
  /**
   * The run's events the store's subscription passed on since the last catch-up, in seq order
   * (every commit's events once, in order): a catch-up for a commit heard folds them from here
   * and reads the log only past a gap. Undefined until the first catch-up, which reads what
   * was committed before the loop subscribed. A catch-up after the loop's own commit still
   * reads the log: its events reach the subscription only after those before them.
   */
  #heard: TeamEvent[] | undefined;
  /** Events folded from here on are emitted live; the ones before belong to a resumed run's past. */
  #live = false;

  constructor(options: RunFoldOptions) {
    this.#options = options;
  }

  /** Folds the log of the run as it opened: from its last start or resume on, live. */
  opened(events: readonly TeamEvent[]): void {
    const first = events.findLast((event) => event.type === 'team:start' || event.type === 'team:resumed');
    for (const event of events) {
      if (event === first) this.#live = true;
      this.#fold(event);
    }
  }

  /** An event of the run that the store's subscription passed on. */
  heard(event: TeamEvent): void {
    this.#heard?.push(event);
  }

  /**
   * Folds what the run's log holds past the state: its own commits and every other process's.
   * With `heard`, a commit was heard: what the subscription passed on is folded, and the log
   * read only when it skips events. With `own`, the events of the loop's own commit as the
   * store answered them: folded from there, and the log read only when they are not next.
   */
  async catchUp(heard = false, own?: readonly TeamEvent[]): Promise<void> {
    const { relay, read } = this.#options;
    const mark = relay.mark();
    const passed = this.#heard?.splice(0) ?? [];
    for (const event of passed) if (event.seq === this.state.seq + 1) this.#fold(event);
    const known = own ? [...passed, ...own] : passed;
    if (own) for (const event of own) if (event.seq === this.state.seq + 1) this.#fold(event);
    if (!(heard || own) || !this.#heard || known.some((event) => event.seq > this.state.seq)) {
      this.#heard ??= [];
      for (const event of await read(this.state.seq)) this.#fold(event);
    }
    relay.folded(mark);
    for (const waiter of this.#waiters) {
      if (!waiter.until(this.state)) continue;
      this.#waiters.delete(waiter);
      waiter.resolve();
    }
  }

  /** Settles once the state satisfies `until` (checked now and after every catch-up); rejects if the run ends first. */
  until(until: (state: RunState) => boolean): Promise<void> {
    if (until(this.state)) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.add({ until, resolve, reject }));
  }

  /** The run is over: every wait still open rejects with `error`. */
  close(error: unknown): void {
    for (const waiter of this.#waiters) waiter.reject(error);
    this.#waiters.clear();
  }

  #fold(event: TeamEvent): void {
    if (event.seq <= this.state.seq) return;
    applyEvent(this.state, event);
    this.#options.folded(event, this.#live);
  }
}
