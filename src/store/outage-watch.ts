import { AsyncLocalStorage } from 'node:async_hooks';
import { TeamError } from '../errors/index.js';

/** How long a run waits for a store it cannot reach, by default (the team's `storeOutageMs`). */
export const DEFAULT_STORE_OUTAGE_MS = 300_000;

/**
 * Failures shorter than this are not reported as an outage: a reset (a terminated backend,
 * a restarted pooler) is healed by the next connection, and says nothing to the person.
 */
const QUIET_MS = 500;

/** An outage of the store as the calls of one watch saw it. */
export interface StoreOutage {
  /** When calls first failed to reach the store, in ms since the epoch. */
  readonly began: number;
  /** What the last failed call was told. */
  readonly error: string;
}

/** Who is told of a watch's outages (a run's loop, which says so in its view and events). */
export interface OutageListener {
  /** The store has been out of reach for a while: the calls wait for it. */
  readonly began?: (outage: StoreOutage) => void;
  /** A call reached the store again after an outage that `began` told of. */
  readonly ended?: (outage: StoreOutage, at: number) => void;
  /** The outage lasted the watch's `outageMs`: every call gives up, with this error. */
  readonly expired?: (error: TeamError) => void;
}

/**
 * How long the store calls of one caller (a run, a worker's turn) wait for a store they
 * cannot reach, and whom they tell. A store that can lose its connection (PostgreSQL) tries
 * a failed call again while `failed` answers time left; the outage ends with any call of the
 * watch that reaches the store. A call that waited `outageMs` gives up with `store-unavailable`.
 */
export class OutageWatch {
  readonly outageMs: number;
  readonly #listener: OutageListener;
  /** What the error of a call that gave up adds: what to do next. */
  readonly #hint: string;
  #since: number | undefined;
  #error = '';
  #reported = false;
  #deadline: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(outageMs: number, listener: OutageListener = {}, hint = '') {
    this.outageMs = outageMs;
    this.#listener = listener;
    this.#hint = hint;
  }

  /** A call could not reach the store: answers how long it may still wait for it (0: give up). */
  failed(error: unknown, now = Date.now()): number {
    this.#error = messageOf(error);
    if (this.#closed) return 0;
    if (this.#since === undefined) {
      this.#since = now;
      // With someone to tell, the end of the wait is a timer of its own: a run waiting on
      // other processes makes no call that would notice it. The timer keeps the process alive.
      if (this.#listener.expired) this.#deadline = setTimeout(() => this.#expire(), this.outageMs);
    } else if (!this.#reported && now - this.#since >= QUIET_MS) {
      this.#report();
    }
    return Math.max(0, this.#since + this.outageMs - now);
  }

  /** A call reached the store: an outage, if one was going on, is over. */
  reached(now = Date.now()): void {
    if (this.#since === undefined || this.#closed) return;
    const outage = { began: this.#since, error: this.#error };
    const reported = this.#reported;
    this.#clear();
    if (reported) this.#listener.ended?.(outage, now);
  }

  /** The error of a call that gave up waiting. */
  unavailable(cause?: unknown): TeamError {
    const seconds = Math.round(this.outageMs / 1000);
    const began = this.#since === undefined ? undefined : new Date(this.#since).toISOString();
    return new TeamError(
      'store-unavailable',
      `The store could not be reached for ${seconds} s: ${this.#error || messageOf(cause)}.${this.#hint}`,
      { details: { outageMs: this.outageMs, began }, cause },
    );
  }

  /** Its caller is done (the run ended): its calls wait no more, nobody is told anything more. */
  close(): void {
    this.#closed = true;
    this.#clear();
  }

  #report(): void {
    this.#reported = true;
    this.#listener.began?.({ began: this.#since ?? Date.now(), error: this.#error });
  }

  #expire(): void {
    this.#deadline = undefined;
    if (this.#since === undefined) return;
    if (!this.#reported) this.#report();
    this.#listener.expired?.(this.unavailable());
  }

  #clear(): void {
    clearTimeout(this.#deadline);
    this.#deadline = undefined;
    this.#since = undefined;
    this.#reported = false;
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message : String(error);
}

const watches = new AsyncLocalStorage<OutageWatch>();

/**
 * Runs `fn` with `watch` as the watch of every store call it makes, down to those of the
 * turns and timers it starts: a run's loop runs under its run's watch, a worker's turn under
 * its team's. The store reads it when a call begins (`callerWatch`).
 */
export function withOutageWatch<T>(watch: OutageWatch, fn: () => T): T {
  return watches.run(watch, fn);
}

/** The watch of the code calling now, if it runs under one. */
export function callerWatch(): OutageWatch | undefined {
  return watches.getStore();
}
