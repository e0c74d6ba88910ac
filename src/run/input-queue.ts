/**
 * A first-in, first-out queue in front of the run's loop: whatever arrives while the loop
 * handles one input waits its turn, so each input runs to completion and nothing re-enters.
 */
export class InputQueue<T> {
  readonly #items: T[] = [];
  #waiting: ((item: T) => void) | undefined;

  push(item: T): void {
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting(item);
    } else this.#items.push(item);
  }

  /** The next input if one is waiting. */
  poll(): T | undefined {
    return this.#items.shift();
  }

  /** The next input, as soon as there is one. */
  take(): Promise<T> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }
}
