import type { Clock } from '../events/clock.js';

/** A clock that moves only when told: `advance` fires the timers it passes, in time order. */
export interface ManualClock extends Clock {
  /** The clock's time as a Date: give it to a store (`new MemoryStore({ now: clock.date })`) so events are stamped on it too. */
  date(): Date;
  /** Moves the clock on by `ms`, firing each timer whose time it reaches, earliest first (each at its own time). */
  advance(ms: number): void;
  /** Timers set and not fired or cancelled. */
  readonly pending: number;
}

/**
 * A `Clock` for tests (the team's `clock` option): time stands still until `advance`, so a
 * test of a request's expiry, a turn's timeout or a time budget runs at once, whatever the
 * durations, and the same every time. It starts at `start` (default: the system clock's now).
 *
 * @example
 * const clock = manualClock();
 * const team = new Team({ ..., clock, planApprovalTimeoutMs: 60_000, store: new MemoryStore({ now: clock.date }) });
 * const run = await team.start({ input: 'Build it' });
 * // ...once the plan request is open:
 * clock.advance(60_000); // it expires now
 */
export function manualClock(start: number = Date.now()): ManualClock {
  let now = start;
  let next = 0;
  const timers = new Map<number, { readonly at: number; readonly callback: () => void }>();
  return {
    now: () => now,
    date: () => new Date(now),
    setTimer(ms, callback) {
      const id = next++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return () => {
        timers.delete(id);
      };
    },
    advance(ms) {
      const until = now + Math.max(0, ms);
      for (;;) {
        let due: [number, { at: number; callback: () => void }] | undefined;
        for (const entry of timers)
          if (entry[1].at <= until && (!due || entry[1].at < due[1].at)) due = entry;
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    },
    get pending() {
      return timers.size;
    },
  };
}
