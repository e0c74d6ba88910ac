import type { StopReason, TeamEvent } from '../events/team-event-map.js';
import type { Team } from '../team/team.js';
import { eventLine, usageLine } from './view/event-line.js';
import { seconds } from './view/format.js';
import { renderLive } from './view/live-view.js';
import { applyEvent, emptyView } from './view/view-model.js';

export interface RunRequest {
  readonly input: string;
  readonly fresh: boolean;
  readonly json: boolean;
  /** The command that continues this run, shown when it is stopped with Ctrl-C. */
  readonly resume: string;
}

/** Exit codes: the work is done (0), left undone (3), stopped by Ctrl-C (130); errors are 1. */
const EXIT: Record<StopReason, number> = {
  completed: 0,
  'no-tasks': 0,
  stalled: 3,
  'turn-limit': 3,
  aborted: 130,
  failed: 1,
};

/** Shows a run as it goes: a live view on a terminal, event lines elsewhere, JSON with --json. */
function attachView(team: Team, json: boolean): { stop(): void } {
  const out = process.stdout;
  if (json) {
    const off = team.on('*', (event) => out.write(`${JSON.stringify(event)}\n`));
    return { stop: off };
  }
  const view = emptyView();
  if (!out.isTTY) {
    const off = team.on('*', (event) => {
      applyEvent(view, event);
      const line = eventLine(event, view.startedAt);
      if (line) out.write(`${line}\n`);
    });
    return { stop: off };
  }
  let drawn = 0;
  let stopped = false;
  const draw = () => {
    if (stopped) return;
    const lines = renderLive(view, Date.now(), out.columns ?? 100);
    out.write(`${drawn > 0 ? `\x1b[${drawn}A\r\x1b[0J` : ''}${lines.join('\n')}\n`);
    drawn = lines.length;
  };
  let pending = false;
  const off = team.on('*', (event: TeamEvent) => {
    applyEvent(view, event);
    if (!pending) {
      pending = true;
      setImmediate(() => {
        pending = false;
        draw();
      });
    }
  });
  out.write('\x1b[?25l');
  const clock = setInterval(draw, 250);
  return {
    stop() {
      off();
      clearInterval(clock);
      draw();
      stopped = true; // a redraw still queued must not overwrite what is printed after the view
      out.write('\x1b[?25h');
    },
  };
}

/**
 * Runs a team for the command: the view, Ctrl-C (first: abort cleanly, the store stays
 * consistent and the run can be resumed; second: quit at once), the final answer and a
 * summary. Answers the exit code.
 */
export async function runTeam(team: Team, request: RunRequest): Promise<number> {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping the run cleanly (Ctrl-C again to quit at once)…\n');
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  const view = attachView(team, request.json);
  const started = Date.now();
  try {
    const result = await team.run({ input: request.input, fresh: request.fresh, signal: controller.signal });
    view.stop();
    const { stopReason, tasks } = result.teamResult;
    if (!request.json) {
      const done = tasks.filter((task) => task.status === 'completed').length;
      if (result.output) process.stdout.write(`\n${result.output}\n`);
      process.stdout.write(
        `\n${stopReason} · ${done}/${tasks.length} tasks · ${usageLine(result.usage.total.totalTokens, result.usage.total.cost)}` +
          ` · ${seconds(Date.now() - started)} · run ${result.runId}\n`,
      );
      if (stopReason === 'aborted') process.stdout.write(`Continue it with: ${request.resume}\n`);
    }
    return EXIT[stopReason];
  } catch (error) {
    view.stop();
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
  }
}
