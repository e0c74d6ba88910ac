import * as fs from 'node:fs';
import * as path from 'node:path';
import { isAlive } from '../process-alive.js';
import { makeFolder } from './file-io.js';

// The order in which waiters go for a held lock. Only the first waiter watches the lock
// folder; each other one watches the ticket of the waiter ahead of it. A release then wakes
// one process instead of every waiter, whose wake-ups would take the CPU the new holder
// needs. The queue only orders wake-ups: the lock file alone decides who holds the lock,
// so a lost or stale ticket costs a little time, never correctness.

let counter = 0;

export class LockQueue {
  readonly #folder: string;

  constructor(lockPath: string) {
    this.#folder = `${lockPath}-queue`;
  }

  /** Takes a place at the end of the queue; answers the ticket. */
  join(): string {
    makeFolder(this.#folder);
    const ticket = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${++counter}`;
    fs.writeFileSync(path.join(this.#folder, ticket), '');
    return ticket;
  }

  /** The ticket just ahead of `ticket`, skipping (and removing) those of dead processes. */
  ahead(ticket: string): string | undefined {
    const tickets = fs.readdirSync(this.#folder).sort();
    for (let index = tickets.indexOf(ticket) - 1; index >= 0; index--) {
      const other = tickets[index] as string;
      if (isAlive(Number(other.split('-')[1]))) return other;
      this.leave(other);
    }
    return undefined;
  }

  path(ticket: string): string {
    return path.join(this.#folder, ticket);
  }

  leave(ticket: string): void {
    fs.rmSync(path.join(this.#folder, ticket), { force: true });
  }
}
