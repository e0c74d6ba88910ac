import type { TeamEvent } from '../../events/team-event-map.js';
import { formatElapsed, type TurnRecord } from './views.js';
import { VirtualList } from './virtual-list.js';

const ROW_HEIGHT = 24;
/** Rows in view at once; more scroll. */
const ROWS_SHOWN = 12;

type Placement = 'after' | 'before' | 'on';

const tokens = (turn: TurnRecord) =>
  turn.tokens === null ? '' : ` · ${turn.tokens.toLocaleString('en-US')} tok`;

/**
 * Every agent's turns over the run's time, as a trace waterfall: one row a turn, in the order
 * they began, its bar from its start to its end (to now while it runs), labelled with its
 * reason, task and tokens. A click opens the agent's transcript at that turn.
 */
export function TurnWaterfall({
  events,
  turns,
  going,
  now,
  onOpen,
}: {
  events: readonly TeamEvent[];
  /** Every agent's turns in `events` (`turnsOf`). */
  turns: readonly TurnRecord[];
  /** The run goes and is followed live: running turns reach to `now`. */
  going: boolean;
  now: number;
  onOpen: (agent: string, turn: number) => void;
}) {
  const first = events[0];
  if (!first || turns.length === 0) return null;
  const start = Date.parse(first.timestamp);
  const last = Date.parse(events.at(-1)?.timestamp ?? first.timestamp);
  const end = Math.max(going ? now : last, last, start + 1);
  const span = end - start;
  const at = (time: number) => `${(((time - start) / span) * 100).toFixed(3)}%`;
  // The label beside its bar where there is room (after it, else before it), else on it.
  const placement = (from: number, to: number): Placement =>
    (to - start) / span < 0.6 ? 'after' : (from - start) / span > 0.4 ? 'before' : 'on';
  const labelAt = (where: Placement, from: number, to: number) =>
    where === 'after'
      ? { left: at(to) }
      : where === 'before'
        ? { right: `calc(100% - ${at(from)})` }
        : { left: at(from) };
  return (
    <section className="panel waterfall" aria-label="Turns over time">
      <h3>
        Turns over time <span className="count">{turns.length}</span>
        <span className="span">{formatElapsed(span)}</span>
      </h3>
      <VirtualList
        label="Turns"
        items={turns}
        rowHeight={ROW_HEIGHT}
        height={Math.min(turns.length, ROWS_SHOWN) * ROW_HEIGHT + 2}
        render={(turn) => {
          const from = Date.parse(turn.startedAt);
          const to = turn.endedAt ? Date.parse(turn.endedAt) : going ? now : last;
          const where = placement(from, to);
          const label = `${turn.reason}${turn.taskId ? ` · ${turn.taskId}` : ''}${tokens(turn)}`;
          return (
            <button
              type="button"
              className={`turn-row status-${turn.status ?? 'working'}`}
              data-bar={`${turn.agent}:${turn.turn}`}
              title={`${turn.agent} turn ${turn.turn}: ${label} (${formatElapsed(to - from)})`}
              onClick={() => onOpen(turn.agent, turn.turn)}
            >
              <span className="turn-who">
                {turn.agent} <span className="quiet">#{turn.turn}</span>
              </span>
              <span className="turn-track">
                <span
                  className="turn-bar"
                  style={{ left: at(from), width: `calc(${at(to)} - ${at(from)})` }}
                />
                <span className={`turn-label ${where}`} style={labelAt(where, from, to)}>
                  {label}
                </span>
              </span>
            </button>
          );
        }}
      />
    </section>
  );
}
