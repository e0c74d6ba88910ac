import type { TeamEvent } from '../events/team-event-map.js';
import { memberNames } from '../roster/roster.js';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { followRun } from './follow-run.js';
import { knownTeam } from './known-team.js';
import { attachView, openPanes } from './run-team.js';
import type { TerminalView } from './view/terminal-view.js';

/**
 * `agent-teams watch <team>`: the team's current run as `run` shows it (the live board, from
 * its first event), followed from the store until it ends, whichever process runs it;
 * Ctrl-C stops the watching, not the run. With `panes`, inside tmux, a pane per agent beside
 * the board, as `run --panes` opens them.
 */
export async function watchTeam(
  store: TeamStore,
  team: string,
  options: { panes: boolean; signal: AbortSignal },
): Promise<void> {
  const { runId, lead, roster } = await knownTeam(store, team);
  if (!runId) throw new CliError(`the team ${team} has not run yet`);
  let view: TerminalView | undefined;
  const agents = [lead, ...memberNames(roster)];
  const panes = options.panes ? await openPanes(agents, (line) => view?.notice(line)) : undefined;
  let end: TeamEvent<'team:complete'> | undefined;
  async function* watched() {
    for await (const event of followRun(store, team, runId as string, {
      follow: true,
      signal: options.signal,
    })) {
      // The run's end, as its last `team:complete` tells it (a resume starts it going again).
      if (event.type === 'team:complete') end = event;
      else if (event.type === 'team:resumed') end = undefined;
      yield event;
    }
  }
  view = attachView(panes ? panes.follow(watched()) : watched(), false);
  try {
    await view.stop();
  } finally {
    await panes?.close(end ? `the run ended: ${end.data.stopReason}` : 'no longer watched');
  }
  if (!end) {
    process.stdout.write(`\nStopped watching; the run ${runId} goes on.\n`);
    return;
  }
  if (end.data.output) process.stdout.write(`\n${end.data.output}\n`);
  process.stdout.write(`\n${end.data.stopReason} · run ${runId}\n`);
}
