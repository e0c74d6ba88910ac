import { isTeamError } from '../errors/index.js';
import type { TeamStore } from '../store/team-store.js';

/** A team's last run that did not finish, and the input it was started with (a resume needs the same). */
export interface ResumableRun {
  readonly runId: string;
  readonly input: string;
}

/**
 * The team's last run, if it can be resumed (it was interrupted, aborted or failed): what
 * `agent-teams resume` and the Studio's Resume continue, by `team.start({ input, fresh: false })`.
 * The store is asked as a resume asks it (so a run of an earlier team of the same name, or
 * a finished one, is never offered), then let go again: the resume that follows takes it for
 * real. A live run is refused with `team-busy`, as a resume would be.
 */
export async function resumableRun(store: TeamStore, team: string): Promise<ResumableRun | undefined> {
  const last = await store.resumeRun(team).catch((error: unknown) => {
    // A team the store never ran has nothing to resume; anything else (busy, a broken file) is said.
    if (isTeamError(error, 'team-not-found')) return undefined;
    throw error;
  });
  const runId = last?.info.runId;
  if (!last || !runId) return undefined;
  await store.leaveRun(team, runId);
  const start = last.events.find((event) => event.type === 'team:start');
  return start?.type === 'team:start' ? { runId, input: start.data.input } : undefined;
}
