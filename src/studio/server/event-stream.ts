import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { TeamEvent } from '../../events/team-event-map.js';
import { OutageWatch } from '../../store/outage-watch.js';
import type { TeamStore } from '../../store/team-store.js';
import { ApiError } from './api-error.js';

/**
 * How long a quiet stream waits before it reads the log again (so a store out of reach is
 * noticed, and said, while nothing happens) and writes a comment line that keeps proxies
 * and the browser from closing it.
 */
const QUIET_MS = 5_000;
/** How many streams one caller (a session of the page, or the token) may hold open at once. */
const MAX_STREAMS_PER_CALLER = 32;
/** How long a stream lives before the Studio ends it; an EventSource reconnects with Last-Event-ID. */
export const STREAM_LIFETIME_MS = 10 * 60_000;
/** How long an EventSource waits before it reconnects to a stream that ended (its `retry:`). */
const RECONNECT_MS = 1000;

/**
 * The open streams of each caller. A stream takes a place before it starts and gives it back
 * when it ends, however it ends; the place after the last is refused (429).
 */
export class StreamPlaces {
  readonly #open = new Map<string, number>();

  /** Takes one of `caller`'s places; answers the function that gives it back (once). */
  take(caller: string): () => void {
    const open = this.#open.get(caller) ?? 0;
    if (open >= MAX_STREAMS_PER_CALLER) {
      throw new ApiError(
        429,
        `At most ${MAX_STREAMS_PER_CALLER} event streams may be open at once; this client has that many.`,
      );
    }
    this.#open.set(caller, open + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.#open.get(caller) ?? 1) - 1;
      if (left > 0) this.#open.set(caller, left);
      else this.#open.delete(caller);
    };
  }
}

/** Whether the Studio reaches the store, as its `event: store` tells the page. */
export type StoreReach =
  | { readonly reachable: false; readonly since: string; readonly error: string }
  | { readonly reachable: true };

/** The seq to go on after: the `Last-Event-ID` a reconnecting EventSource sends, else 0. */
export function resumeAfter(header: string | undefined): number {
  const seq = Number(header);
  return header !== undefined && Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}

/**
 * `GET /api/runs/:runId/events`: every event of the run after `afterSeq`, from its log, then
 * each new one as it is committed, by this process or another; `id:` is the event's seq, so
 * a reconnecting EventSource resumes with `Last-Event-ID`. The store's subscription only
 * wakes the stream: what is sent is always read from the log after the last seq sent, so no
 * event is missed or sent twice whatever the order of the wake-ups.
 *
 * The stream ends by itself after `lifetimeMs`, even if its reader stopped reading (a write
 * waiting on it is dropped); the EventSource reconnects and resumes after the last event it
 * took. `release` is called once it has ended.
 *
 * With `watch` (a run this Studio runs), the run's live text (`team:text-delta`, never logged)
 * goes out too, as `data:` without an `id:` (it has no place in the log, so a reconnect
 * neither resumes after it nor gets it again). Each waits until the log's events up to its
 * `seq` (the last one committed before it) are sent: text never comes before the events it
 * followed.
 *
 * While the store cannot be reached (PostgreSQL restarting or cut off), the stream waits for
 * it and says so to the page: an `event: store` with `{ reachable: false, since, error }`,
 * then `{ reachable: true }` once a read gets through.
 */
export function eventStream(
  c: Context,
  store: TeamStore,
  run: { runId: string; team: string; afterSeq: number },
  limits: { lifetimeMs: number; release: () => void; watch: LiveWatch | undefined },
): Response {
  return streamSSE(c, async (stream) => {
    let after = run.afterSeq;
    let dirty = true;
    let wake: () => void = () => {};
    const unsubscribe = store.subscribe(run.team, (events) => {
      if (!events.some((event) => event.runId === run.runId)) return;
      dirty = true;
      wake();
    });
    const held: TeamEvent[] = [];
    const unwatch = limits.watch?.((event) => {
      held.push(event);
      wake();
    });
    const due = () => held.length > 0 && (held[0] as TeamEvent).seq <= after;
    stream.onAbort(() => wake());
    const lifetime = setTimeout(() => stream.abort(), limits.lifetimeMs);
    const say = (reach: StoreReach) => {
      stream.write(`event: store\ndata: ${JSON.stringify(reach)}\n\n`).catch(() => undefined);
    };
    const outage = new OutageWatch(limits.lifetimeMs, {
      began: ({ began, error }) => say({ reachable: false, since: new Date(began).toISOString(), error }),
      ended: () => say({ reachable: true }),
    });
    try {
      await stream.write(`retry: ${RECONNECT_MS}\n\n`);
      while (!stream.aborted && !stream.closed) {
        if (dirty) {
          dirty = false;
          const read = () => sendAfter(stream, store, run.runId, after);
          after = await (store.withOutageWatch ? store.withOutageWatch(outage, read) : read());
          continue;
        }
        if (due()) {
          const count = held.findIndex((event) => event.seq > after);
          const ready = held.splice(0, count < 0 ? held.length : count);
          await stream.write(ready.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''));
          continue;
        }
        const quiet = await waitFor(QUIET_MS, (resolve) => {
          wake = resolve;
          if (dirty || due() || stream.aborted) resolve();
        });
        if (quiet && !stream.aborted) {
          dirty = true;
          await stream.write(': keep-alive\n\n');
        }
      }
    } finally {
      outage.close();
      clearTimeout(lifetime);
      unsubscribe();
      unwatch?.();
      limits.release();
    }
  });
}

/** Subscribes a stream to a run's live events; answers the unsubscribe (`undefined`: nothing to watch). */
export type LiveWatch = (listener: (event: TeamEvent) => void) => (() => void) | undefined;

/** Sends the events after `after` in one write (a catch-up of thousands is one chunk); answers the last seq sent. */
async function sendAfter(stream: SSEStreamingApi, store: TeamStore, runId: string, after: number) {
  const events = await store.readEvents(runId, { afterSeq: after });
  if (events.length === 0) return after;
  // JSON.stringify never writes a line break, so each event is one `data:` line.
  await stream.write(events.map((event) => `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
  return events.at(-1)?.seq ?? after;
}

/** Resolves `true` after `ms`, or `false` as soon as the callback it hands out is called. */
function waitFor(ms: number, hand: (resolve: () => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    hand(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}
