import { useEffect, useMemo, useRef, useState } from 'react';
import type { TeamEvent } from '../../events/team-event-map.js';
import { applyEvent, foldEvents } from '../../fold/apply-event.js';
import { emptyRunState, type RunState } from '../../fold/run-state.js';
import { eventsUrl, type StoreReach } from './api.js';
import { followStreaming, type Streaming } from './views.js';

export interface RunView {
  /** Every event received so far, in seq order. */
  readonly events: readonly TeamEvent[];
  /** The run folded up to `position` events, by the runtime's own fold. */
  readonly state: RunState;
  /** How many events are folded in: all of them when following live. */
  readonly position: number;
  readonly live: boolean;
  readonly connected: boolean;
  /** The stream was refused for good: the Studio stopped, or restarted with a new token. */
  readonly lost: boolean;
  /**
   * Each working agent's text as its model streams it (`team:text-delta`, live only: sent for
   * the runs this Studio runs, never in the log, so never in `events` nor in a replay).
   */
  readonly streaming: ReadonlyMap<string, Streaming>;
  /** The store the Studio reads is out of reach (since when, and why), as its stream says; else `null`. */
  readonly storeDown: { readonly since: string; readonly error: string } | null;
  /** Replay: fold only the first `n` events; `null` follows the run live again. */
  seek(n: number | null): void;
}

/**
 * A run's events from its stream, folded with the runtime's fold. Events are taken in as
 * they come but folded and drawn once per animation frame, so a burst of thousands costs
 * one render, not thousands. A reconnecting stream resumes after the last seq it gave.
 */
export function useRun(runId: string): RunView {
  const events = useRef<TeamEvent[]>([]);
  const folded = useRef<RunState>(emptyRunState());
  const streaming = useRef(new Map<string, Streaming>());
  const [version, setVersion] = useState(0);
  const [connected, setConnected] = useState(false);
  const [lost, setLost] = useState(false);
  const [storeDown, setStoreDown] = useState<RunView['storeDown']>(null);
  const [seekTo, setSeekTo] = useState<number | null>(null);

  useEffect(() => {
    events.current = [];
    folded.current = emptyRunState();
    streaming.current = new Map();
    setVersion(0);
    let pending: TeamEvent[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      for (const event of pending) {
        followStreaming(streaming.current, event);
        // Live text shares the seq of the event before it: it is not the log's.
        if (event.type === 'team:text-delta') continue;
        // A stream that reconnected may repeat what it gave: the seq tells.
        if (event.seq <= (events.current.at(-1)?.seq ?? 0)) continue;
        events.current.push(event);
        applyEvent(folded.current, event);
      }
      pending = [];
      setVersion((n) => n + 1);
    };
    const source = new EventSource(eventsUrl(runId));
    source.onopen = () => {
      setConnected(true);
      // A stream opens only once the Studio has read the run from its store.
      setStoreDown(null);
    };
    source.addEventListener('store', (message) => {
      const reach = JSON.parse((message as MessageEvent<string>).data) as StoreReach;
      setStoreDown(reach.reachable ? null : { since: reach.since, error: reach.error });
    });
    source.onerror = () => {
      setConnected(false);
      // An EventSource retries on its own after a dropped connection, not after a refusal.
      setLost(source.readyState === EventSource.CLOSED);
    };
    source.onmessage = (message) => {
      pending.push(JSON.parse(message.data) as TeamEvent);
      // When the latest event arrived, for the benchmark (bench/studio.ts) to split its figure.
      document.body.dataset.receivedAt = String(performance.timeOrigin + performance.now());
      frame ||= requestAnimationFrame(flush);
    };
    return () => {
      source.close();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [runId]);

  const all = events.current;
  const position = seekTo === null ? all.length : Math.min(seekTo, all.length);
  // Replay folds the log's first `position` events afresh: the picture as it was then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says the events grew.
  const state = useMemo(
    () => (position === all.length ? folded.current : foldEvents(all.slice(0, position))),
    [position, all, version],
  );
  return {
    events: all,
    state,
    position,
    live: seekTo === null,
    connected,
    lost,
    streaming: streaming.current,
    storeDown,
    seek: setSeekTo,
  };
}
