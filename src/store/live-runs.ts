import * as fs from 'node:fs';
import { TeamError } from '../errors/index.js';
import type { TeamEvent } from '../events/team-event-map.js';
import { hostName } from './runner-identity.js';

/** The error for a start, resume or roster change refused because the team's run is live. */
export function teamBusy(team: string, runId: string, pid: number, host: string = hostName()): TeamError {
  const advice =
    pid === process.pid && host === hostName()
      ? 'this process runs it already, and a team has one live run per store: wait for it to end.'
      : 'wait for it to finish, or stop it (agent-teams abort, or Ctrl-C there) and resume it.';
  // Said as the records name it: the host only when it is another's name.
  const where = host === hostName() ? `process ${pid}` : `process ${pid} on ${host}`;
  return new TeamError('team-busy', `The team ${team} is running in ${where} (run ${runId}): ${advice}`, {
    details: { team, runId, pid, host },
  });
}

/**
 * The runs this process runs on one store, by team: a team has at most one live run per
 * store, so a second start or resume in the same process is refused as one from another
 * process is. A run stops being live here when its `team:complete` is committed or its
 * runner leaves it (`leaveRun`).
 */
export class LiveRuns {
  readonly #runs = new Map<string, string>();

  enter(team: string, runId: string): void {
    this.#runs.set(team, runId);
  }

  leave(team: string, runId: string): void {
    if (this.#runs.get(team) === runId) this.#runs.delete(team);
  }

  /** Forgets the runs a commit ended: its events include their `team:complete`. */
  settle(team: string, events: readonly TeamEvent[]): void {
    for (const event of events) {
      if (event.type === 'team:complete' && event.runId) this.leave(team, event.runId);
    }
  }

  /** The run of `team` this process runs, if one. */
  runs(team: string): string | undefined {
    return this.#runs.get(team);
  }

  /** Throws `team-busy` while this process runs `runId`, the team's current run. */
  refuse(team: string, runId: string | null): void {
    if (runId !== null && this.#runs.get(team) === runId) throw teamBusy(team, runId, process.pid);
  }
}

// One registry per store for the whole process, by a key that names the store (a FileStore's
// folder, a PostgresStore's database and schema): two store objects on one store share it.
const byStore = new Map<string, LiveRuns>();

/** The live runs of every store object of this process on the store `key` names. */
export function liveRunsOf(key: string): LiveRuns {
  let runs = byStore.get(key);
  if (!runs) {
    runs = new LiveRuns();
    byStore.set(key, runs);
  }
  return runs;
}

/** The live runs of every FileStore of this process on the folder `root`, whatever path names it. */
export function liveRunsAt(root: string): LiveRuns {
  let folder = root;
  try {
    folder = fs.realpathSync.native(root);
  } catch {
    // Not made yet: no team there, so nothing runs; the path as given is the key meanwhile.
  }
  return liveRunsOf(`folder:${folder}`);
}
