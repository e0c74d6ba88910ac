import { useEffect, useState } from 'react';
import type { TeamEvent } from '../../events/team-event-map.js';

/** Events a second when the replay plays by itself. */
const PLAY_RATE = 12;

/** The replay slider: any point of the run's log, played on by itself, or live. */
export function Timeline(props: {
  total: number;
  position: number;
  live: boolean;
  events: readonly TeamEvent[];
  onSeek: (position: number | null) => void;
}) {
  const { total, position, live, events, onSeek } = props;
  const [playing, setPlaying] = useState(false);
  const at = events[position - 1];

  useEffect(() => {
    if (!playing) return;
    if (live || position >= total) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => onSeek(position + 1 >= total ? null : position + 1), 1000 / PLAY_RATE);
    return () => clearTimeout(timer);
  }, [playing, live, position, total, onSeek]);

  return (
    <footer className="timeline">
      <input
        type="range"
        aria-label="timeline"
        min={0}
        max={total}
        value={position}
        onChange={(event) => {
          const value = Number(event.target.value);
          onSeek(value >= total ? null : value);
        }}
      />
      <span className="position" data-testid="position">
        event {position} / {total}
        {at ? ` · ${at.type.replace('team:', '')} · ${at.timestamp.slice(11, 19)}` : ''}
      </span>
      <button
        type="button"
        onClick={() => {
          if (live) onSeek(0);
          setPlaying(!playing || live);
        }}
      >
        {playing ? 'Pause' : live ? 'Replay from start' : 'Play'}
      </button>
      <button type="button" disabled={live} onClick={() => onSeek(null)}>
        Live
      </button>
    </footer>
  );
}
