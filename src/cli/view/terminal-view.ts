import { createLogUpdate } from 'log-update';
import type { TeamEvent } from '../../events/team-event-map.js';
import { applyEvent } from '../../fold/apply-event.js';
import { emptyRunState } from '../../fold/run-state.js';
import { clip, rowsOf } from './columns.js';
import { LatestLines } from './latest-lines.js';
import { renderLive, type StoreOutageShown } from './live-view.js';

/** The live view on a terminal: redrawn in place, always fitting the window. */
export interface TerminalView {
  /** Shows a line under the board (the "stopping" notice after Ctrl-C), kept in every frame. */
  notice(line: string): void;
  /** Waits for the run's last event, then leaves the final board, whole, on the screen. */
  stop(): Promise<void>;
}

/**
 * `lines` cut to a window `rows` tall: the top of the board (the header and the agents come
 * first) and a line saying how much is not shown. A frame taller than the window would
 * scroll, and each redraw would then leave a copy behind.
 */
export function fitHeight(lines: readonly string[], rows: number, width: number): string[] {
  // log-update keeps one line under the frame for the cursor; a line wider than the window wraps.
  const room = Math.max(1, rows - 1);
  const height = (line: string) => rowsOf(line, width);
  if (lines.reduce((sum, line) => sum + height(line), 0) <= room) return [...lines];
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + height(line) > room - 1) break;
    kept.push(line);
    used += height(line);
  }
  const note = `… ${lines.length - kept.length} more lines (a taller window shows them)`;
  return [...kept, clip(note, width)];
}

/**
 * Shows a run on a terminal from its first event (so a resumed run's view is the whole run,
 * folded), with `log-update` redrawing only what changed; the clock ticks every 250 ms.
 */
export function terminalView(events: AsyncIterable<TeamEvent>, out: NodeJS.WriteStream): TerminalView {
  const view = emptyRunState();
  const latest = new LatestLines();
  const update = createLogUpdate(out, { showCursor: false });
  let notice: string | undefined;
  // Said live as it begins, logged as it ends: shown from the one to the other.
  let outage: StoreOutageShown | undefined;
  let stopped = false;
  const frame = (fit: boolean): string => {
    const width = out.columns ?? 100;
    const lines = renderLive(view, Date.now(), width, (agent) => latest.of(agent), outage);
    if (notice) lines.push('', clip(notice, width));
    return (fit ? fitHeight(lines, out.rows ?? 24, width) : lines).join('\n');
  };
  const redraw = () => {
    if (!stopped) update(frame(true));
  };
  let pending = false;
  const draw = () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      redraw();
    });
  };
  const shown = (async () => {
    for await (const event of events) {
      applyEvent(view, event);
      latest.see(event);
      if (event.type === 'team:store-outage') outage = event.data.ended === null ? event.data : undefined;
      draw();
    }
  })();
  const clock = setInterval(redraw, 250);
  return {
    notice(line) {
      notice = line;
      redraw();
    },
    async stop() {
      await shown.finally(() => clearInterval(clock));
      stopped = true; // a redraw still queued must not overwrite what is printed after the view
      // The last board stays, whole: it no longer redraws, so it may scroll like any output.
      update.clear();
      update.done();
      out.write(`${frame(false)}\n`);
    },
  };
}
