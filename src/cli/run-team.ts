import type { StopReason, TeamEvent } from '../events/team-event-map.js';
import { applyEvent } from '../fold/apply-event.js';
import { emptyRunState } from '../fold/run-state.js';
import type { Team } from '../team/team.js';
import { tmuxPane } from './tmux.js';
import { AgentPanes } from './view/agent-panes.js';
import { eventLine, usageLine } from './view/event-line.js';
import { seconds, taskTally, unpricedLines } from './view/format.js';
import { type TerminalView, terminalView } from './view/terminal-view.js';

export interface RunRequest {
  readonly input: string;
  readonly fresh: boolean;
  readonly json: boolean;
  /** Inside tmux, a pane per agent beside the board (`--panes`). */
  readonly panes?: boolean;
  /** The line shown when the run is stopped with Ctrl-C: how to go on from there. */
  readonly onAbort: string;
}

/**
 * The split-pane view for `--panes`: inside tmux, a pane per agent beside this one (the
 * board); outside tmux, a line saying so, and the usual view alone.
 */
export async function openPanes(
  agents: readonly string[],
  notice: (line: string) => void,
): Promise<AgentPanes | undefined> {
  const board = tmuxPane();
  if (board) return AgentPanes.open(board, agents, notice);
  process.stderr.write(
    '--panes splits a tmux window: run the command inside tmux for a pane per agent. Showing the usual view.\n',
  );
  return undefined;
}

/** Exit codes: the work is done (0), left undone (3), stopped by Ctrl-C (130); errors are 1. */
const EXIT: Record<StopReason, number> = {
  completed: 0,
  'no-tasks': 0,
  stalled: 3,
  'turn-limit': 3,
  budget: 3,
  aborted: 130,
  failed: 1,
};

/**
 * Shows a run as it goes, from its first event (a resumed run whole): a live view of the
 * runtime's own fold on a terminal, event lines elsewhere, JSON with --json.
 */
export function attachView(events: AsyncIterable<TeamEvent>, json: boolean): TerminalView {
  const out = process.stdout;
  if (out.isTTY && !json) return terminalView(events, out);
  const view = emptyRunState();
  const shown = (async () => {
    for await (const event of events) {
      applyEvent(view, event);
      // --json prints the run's log (live text is not in it, and not asked for).
      if (json) {
        out.write(`${JSON.stringify(event)}\n`);
        continue;
      }
      const line = eventLine(event, Date.parse(view.startedAt ?? event.timestamp));
      if (line) out.write(`${line}\n`);
    }
  })();
  return {
    notice: (line) => process.stderr.write(`\n${line}\n`),
    stop: () => shown,
  };
}

/**
 * Runs a team for the command: the view, Ctrl-C (first: abort cleanly, the store stays
 * consistent and the run can be resumed; second: quit at once), the final answer and a
 * summary. Answers the exit code.
 */
export async function runTeam(team: Team, request: RunRequest): Promise<number> {
  const controller = new AbortController();
  let view: TerminalView | undefined;
  const agents = [team.lead.name, ...team.members.map((member) => member.name)];
  const panes = request.panes ? await openPanes(agents, (line) => view?.notice(line)) : undefined;
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    // On a terminal the notice is part of the board, so redraws keep it readable.
    const notice = 'Stopping the run cleanly (Ctrl-C again to quit at once)…';
    if (view) view.notice(notice);
    else process.stderr.write(`\n${notice}\n`);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  const started = Date.now();
  try {
    const run = await team.start({ input: request.input, fresh: request.fresh, signal: controller.signal });
    // The live view and the panes show text as the models write it: they ask for it, so the turns stream.
    const events = run.events({ deltas: panes !== undefined || (process.stdout.isTTY && !request.json) });
    view = attachView(panes ? panes.follow(events) : events, request.json);
    const result = await run.result;
    await view.stop();
    const { stopReason, tasks } = result.teamResult;
    await panes?.close(`the run ended: ${stopReason}`);
    if (!request.json) {
      if (result.output) process.stdout.write(`\n${result.output}\n`);
      process.stdout.write(
        `\n${stopReason} · ${taskTally(tasks)} · ${usageLine(result.usage.total.totalTokens, result.usage.total.cost)}` +
          ` · ${seconds(Date.now() - started)} · run ${result.runId}\n`,
      );
      for (const line of unpricedLines(Object.entries(result.usage.byAgent)))
        process.stdout.write(`${line}\n`);
      if (stopReason === 'aborted') process.stdout.write(`${request.onAbort}\n`);
    }
    return EXIT[stopReason];
  } catch (error) {
    await view?.stop();
    await panes?.close('the run failed');
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
  }
}
