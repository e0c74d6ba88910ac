import type { TeamStore } from '../store/team-store.js';

/**
 * Wakes a reader that follows a team's log when the store tells of new commits (LISTEN on
 * PostgreSQL, the stamp's watch on a FileStore), or after `atMostMs` at the latest, so the
 * reader also notices a runner that died. A notice that came while the reader was reading
 * is kept for its next wait.
 */
export function storeWakeups(store: TeamStore, team: string, signal: AbortSignal, atMostMs = 1000) {
  let woken = false;
  let wake: (() => void) | undefined;
  const stop = store.subscribe(team, () => {
    woken = true;
    wake?.();
  });
  return {
    stop,
    next(): Promise<void> {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wake = undefined;
          woken = false;
          resolve();
        };
        const timer = setTimeout(done, woken || signal.aborted ? 0 : atMostMs);
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    },
  };
}
