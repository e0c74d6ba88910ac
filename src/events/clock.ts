/**
 * Where the runtime reads the time and waits: request expiries, turn timeouts, time budgets.
 * The system clock by default; the testing kit's `manualClock()` moves only when told, so a
 * test of an expiry or a timeout does not wait in real time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once `ms` have passed on this clock; answers the cancel. */
  setTimer(ms: number, callback: () => void): () => void;
}

// Node's longest timer; a later time is waited for in steps.
const LONGEST_DELAY = 2 ** 31 - 1;

/** The machine's clock and timers (a timer keeps the process alive until it fires: a run waiting on an expiry is not over). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, callback) {
    const due = Date.now() + ms;
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = due - Date.now();
      timer = setTimeout(left > LONGEST_DELAY ? arm : callback, Math.min(Math.max(0, left), LONGEST_DELAY));
    };
    arm();
    return () => clearTimeout(timer);
  },
};
