import type { TeamEvent } from '../events/team-event-map.js';
import {
  abortRun,
  checkShutdownOptions,
  interruptMember,
  requestShutdown,
  requireGoingRun,
  requireLiveRun,
} from '../run/control.js';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { knownTeam } from './known-team.js';
import { storeWakeups } from './wakeups.js';

// `agent-teams abort`, `shutdown` and `interrupt`: controls of a run from another shell. Each
// is a commit the run's process folds (see src/run/control.ts); the command then follows the
// run's log until the control took effect, or says it is still under way.

/** How long the command follows the log for the effect before it says it goes on without it. */
const FOLLOW_MS = 30_000;

const print = (line: string) => process.stdout.write(`${line}\n`);

/** The team's current run, going (and with `live`, run by a live process); a clear error when not. */
async function goingRun(store: TeamStore, team: string, live = false): Promise<string> {
  const info = await knownTeam(store, team);
  if (info.runId === null) throw new CliError(`the team ${team} has no run`);
  await (live ? requireLiveRun : requireGoingRun)(store, team, info.runId);
  return info.runId;
}

/** Follows the run's log until an event satisfies `done`; false when `FOLLOW_MS` passed first. */
async function follow(
  store: TeamStore,
  team: string,
  runId: string,
  done: (event: TeamEvent) => boolean,
): Promise<boolean> {
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(), FOLLOW_MS);
  const wakeups = storeWakeups(store, team, stop.signal);
  try {
    let seq = 0;
    while (!stop.signal.aborted) {
      const events = await store.readEvents(runId, { afterSeq: seq });
      if (events.some(done)) return true;
      seq = events.at(-1)?.seq ?? seq;
      await wakeups.next();
    }
    return false;
  } finally {
    clearTimeout(deadline);
    wakeups.stop();
  }
}

/** `agent-teams abort <team>`: the team's run stops (its turns cut, nothing left in progress), `aborted`. */
export async function abortCommand(
  store: TeamStore,
  team: string,
  reason: string | undefined,
): Promise<void> {
  const runId = await goingRun(store, team, true);
  await abortRun(store, team, reason ?? 'aborted with agent-teams abort');
  print(`asked ${runId} to stop`);
  const ended = await follow(store, team, runId, (event) => event.type === 'team:complete');
  print(
    ended
      ? `${runId} stopped (aborted); continue it with agent-teams resume`
      : `${runId} is still stopping: its process ends it once its turns stop`,
  );
}

/** `agent-teams shutdown <team> <member> [--force]`: the member leaves the run (graceful: it is asked). */
export async function shutdownCommand(
  store: TeamStore,
  team: string,
  member: string,
  options: { force?: boolean; reason?: string },
): Promise<void> {
  const runId = await goingRun(store, team);
  const checked = checkShutdownOptions({
    ...(options.force ? { force: true } : {}),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  });
  await requestShutdown(store, team, member, checked);
  if (!checked.force) {
    print(`asked ${member} of ${team} to shut down; it answers in its next turn`);
    return;
  }
  const gone = (event: TeamEvent) => event.type === 'team:member-shutdown' && event.data.member === member;
  print(
    (await follow(store, team, runId, gone))
      ? `${member} of ${team} shut down`
      : `${member} of ${team} shuts down once its turn stops`,
  );
}

/**
 * `agent-teams interrupt <team> <member> "…"`: the member's running turn stops (its task kept)
 * and its next turn starts with the message; follows the log until that turn began.
 */
export async function interruptCommand(
  store: TeamStore,
  team: string,
  member: string,
  message: string,
): Promise<void> {
  const runId = await goingRun(store, team, true);
  const sent = await interruptMember(store, team, member, message);
  print(`interrupted ${member} of ${team} with ${sent.id}`);
  const started = (event: TeamEvent) =>
    event.type === 'team:member-started' &&
    event.data.member === member &&
    event.data.messageIds.includes(sent.id);
  print(
    (await follow(store, team, runId, started))
      ? `${member} took a new turn with your message first`
      : `${member} reads your message first in its next turn`,
  );
}
