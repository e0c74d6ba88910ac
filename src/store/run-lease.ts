// A run's lease: the process that runs a run renews, every `RENEW_MS`, the time its record
// says it last did; a store decides from it (and, on the runner's own machine, from whether
// its process still lives) whether a live process runs the run. One mechanism for three
// answers: whether a second start or resume is refused (`team-busy`, from any machine),
// whether a run shows `interrupted`, and whether a control like `abort` has anyone to act.

/** How often a runner renews its lease. */
const RENEW_MS = 1_000;

/**
 * How long a lease holds without a renewal. On PostgreSQL the database's clock stamps and
 * reads it. A FileStore on a shared folder compares the runner's clock with the reader's, so
 * it allows for drift; on the runner's own machine it asks whether the process lives instead.
 */
export const LEASE_MS = { postgres: 4_000, file: 10_000 } as const;

/** The renewals of the runs this store object runs: one timer each, which does not keep the process alive. */
export class Renewals {
  readonly #timers = new Map<string, NodeJS.Timeout>();

  /** Renews `runId`'s lease every `RENEW_MS` until `stop`; `renew` answers false once the lease is not this process's any more. */
  start(runId: string, renew: () => Promise<boolean>): void {
    this.stop(runId);
    const timer = setInterval(() => {
      renew().then(
        (held) => {
          if (!held) this.stop(runId);
        },
        // A failed renewal (the store is out of reach) is tried again at the next tick.
        () => undefined,
      );
    }, RENEW_MS);
    timer.unref();
    this.#timers.set(runId, timer);
  }

  stop(runId: string): void {
    clearInterval(this.#timers.get(runId));
    this.#timers.delete(runId);
  }

  stopAll(): void {
    for (const runId of [...this.#timers.keys()]) this.stop(runId);
  }
}
