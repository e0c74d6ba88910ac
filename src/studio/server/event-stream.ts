import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { TeamStore } from '../../store/team-store.js';

/** How long a quiet stream waits before a comment line keeps proxies and the browser from closing it. */
const KEEP_ALIVE_MS = 15_000;

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
 */
export function eventStream(
  c: Context,
  store: TeamStore,
  run: { runId: string; team: string },
  afterSeq: number,
): Response {
  return streamSSE(c, async (stream) => {
    let after = afterSeq;
    let dirty = true;
    let wake: () => void = () => {};
    const unsubscribe = store.subscribe(run.team, (events) => {
      if (!events.some((event) => event.runId === run.runId)) return;
      dirty = true;
      wake();
    });
    stream.onAbort(() => wake());
    try {
      while (!stream.aborted && !stream.closed) {
        if (dirty) {
          dirty = false;
          after = await sendAfter(stream, store, run.runId, after);
          continue;
        }
        const quiet = await waitFor(KEEP_ALIVE_MS, (resolve) => {
          wake = resolve;
          if (dirty || stream.aborted) resolve();
        });
        if (quiet && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
    } finally {
      unsubscribe();
    }
  });
}

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
