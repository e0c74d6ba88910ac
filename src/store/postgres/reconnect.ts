import type { OutageWatch } from '../outage-watch.js';
import { storeError } from './store-error.js';

// What a lost connection to PostgreSQL is, and how a call tries again after one: a new
// connection at once (a reset, a failover, a restarted pooler leave the next one working),
// then with backoff while the caller's watch lets it wait.

/** Node's errors of a socket that did not open or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs of a session it ended or would not start for now: `57P01` a
 * terminated backend (`pg_terminate_backend`, a shutdown), `57P02` a crashed server, `57P03`
 * a server starting or stopping, `53300` too many connections; and class `08`, connection
 * exceptions.
 */
const SESSION_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What node-postgres says of a connection that ended under a query, or of a pool that could not connect in time. */
const LOST =
  /connection terminated|not queryable|timeout exceeded when trying to connect|connection timeout/i;

/**
 * Whether `error` (or what caused it) is a lost or refused connection, not a refusal of the
 * statement: on a new connection the same work may succeed.
 */
export function connectionLost(error: unknown): boolean {
  let at: unknown = error;
  for (let depth = 0; at && depth < 5; depth++) {
    if (at instanceof AggregateError && at.errors.some(connectionLost)) return true;
    const { code, message } = at as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SESSION_STATES.has(code) || /^08/.test(code)))
      return true;
    if (typeof message === 'string' && LOST.test(message)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A COMMIT whose connection was lost belongs to a transaction the database still runs (its
 * session has not ended yet): whether it landed is asked again after a wait.
 */
export class CommitInDoubt extends Error {
  constructor(txid: string) {
    super(`Whether transaction ${txid} committed is not known yet: its session is still ending`);
  }
}

/** How long a call waits before its next try: none after its first failure, then 100 ms doubling to 5 s. */
function backoffMs(failures: number): number {
  return failures <= 1 ? 0 : Math.min(5_000, 100 * 2 ** (failures - 2));
}

/**
 * Runs `attempt` until it answers. A lost connection (or a commit in doubt) is tried again
 * while `watch` lets the caller wait, and every try tells the watch whether it reached the
 * database; past the wait it throws the watch's `store-unavailable`. Any other error is the
 * call's. The sleeps are timers that keep the process alive: something waits on them.
 */
export async function patiently<T>(watch: OutageWatch, attempt: () => Promise<T>): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      const value = await attempt();
      watch.reached();
      return value;
    } catch (error) {
      if (!connectionLost(error) && !(error instanceof CommitInDoubt)) {
        // The database answered (a refusal of the rules, of the statement): it is reachable.
        watch.reached();
        throw error;
      }
      const left = watch.failed(error);
      if (left <= 0) throw watch.unavailable(error);
      const wait = Math.min(left, backoffMs(failures));
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** `patiently`, failing as the store fails: an error of the database as `store-io` (see storeError). */
export function storePatiently<T>(watch: OutageWatch, attempt: () => Promise<T>): Promise<T> {
  return patiently(watch, attempt).catch((error: unknown) => Promise.reject(storeError(error)));
}
