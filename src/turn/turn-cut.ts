import type { Clock } from '../events/clock.js';

/**
 * What stops a running turn, whichever asks first: the run (its signal), the turn's time
 * bound, a hook that threw inside a tool. One controller: cheaper than `AbortSignal.any`,
 * which weakly tracks every signal it makes.
 */
export class TurnCut {
  readonly timeoutMs: number;
  /** The turn ran past its bound. */
  timedOut = false;
  /** What a hook threw inside a tool, which stopped the turn (and fails it). */
  hookFailure: unknown;
  readonly #controller = new AbortController();
  readonly #run: AbortSignal;
  readonly #cancelTimer: () => void;
  readonly #stopped = () => this.#controller.abort(this.#run.reason);

  constructor(run: AbortSignal, clock: Clock, timeoutMs: number) {
    this.#run = run;
    this.timeoutMs = timeoutMs;
    this.#cancelTimer = clock.setTimer(timeoutMs, () => {
      this.timedOut = true;
      this.#controller.abort();
    });
    if (run.aborted) this.#stopped();
    else run.addEventListener('abort', this.#stopped, { once: true });
  }

  /** The signal the turn's model call and tools stop on. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether the run stopped the turn. */
  get aborted(): boolean {
    return this.#run.aborted;
  }

  /** A hook threw inside a tool: the turn stops, and fails with the first such error. */
  readonly hookFailed = (error: unknown): void => {
    this.hookFailure ??= error;
    this.#controller.abort(error);
  };

  /** The turn is over: its timer and its listener on the run go. */
  dispose(): void {
    this.#cancelTimer();
    this.#run.removeEventListener('abort', this.#stopped);
  }
}
