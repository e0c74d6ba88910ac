import type { TeamEvent } from '../../events/team-event-map.js';

/** The replay slider: any point of the run's log, or live. */
export function Timeline(props: {
  total: number;
  position: number;
  live: boolean;
  events: readonly TeamEvent[];
  onSeek: (position: number | null) => void;
}) {
  const { total, position, live, events } = props;
  const at = events[position - 1];
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
          props.onSeek(value >= total ? null : value);
        }}
      />
      <span className="position" data-testid="position">
        event {position} / {total}
        {at ? ` · ${at.type.replace('team:', '')} · ${at.timestamp.slice(11, 19)}` : ''}
      </span>
      <button type="button" onClick={() => props.onSeek(0)}>
        Replay from start
      </button>
      <button type="button" disabled={live} onClick={() => props.onSeek(null)}>
        Live
      </button>
    </footer>
  );
}
