import { TeamError } from '../errors/index.js';
import type { TeamStore } from '../store/team-store.js';
import { reclaimForWaiting } from './reclaim.js';
import { profilesOf, replayRoster } from './roster.js';
import type { TeamSettings } from './team-settings.js';

export interface OpenedRun {
  readonly runId: string;
  readonly resumed: boolean;
}

/**
 * Makes the team known to the store and starts its run, or (with `fresh: false`) resumes its
 * last unfinished run, whose input must be the same. Commits the run's first event:
 * `team:start` with the seed tasks, or `team:resumed` with what was in progress requeued.
 */
export async function openRun(
  store: TeamStore,
  settings: TeamSettings,
  input: string,
  fresh: boolean,
): Promise<OpenedRun> {
  const lead = settings.lead.name;
  const members = settings.members.map((member) => member.name);
  await store.createTeam(settings.name, {
    lead,
    members,
    selfClaim: settings.selfClaim,
    maxTasks: settings.maxTasks,
    maxMembers: settings.formation.maxMembers,
    judgesTasks: settings.hooks.onTaskCreated !== undefined,
    profiles: profilesOf([settings.lead, ...settings.members]),
  });
  const resumable = fresh ? undefined : await store.resumeRun(settings.name);
  const runId = resumable
    ? (resumable.info.runId as string)
    : ((await store.startRun(settings.name, { fresh })).runId as string);
  try {
    if (resumable) {
      const start = resumable.events.find((event) => event.type === 'team:start');
      if (start && start.data.input !== input) {
        throw new TeamError(
          'invalid-input',
          `The run ${runId} was started with another input; give the same input to resume it, or use fresh: true.`,
          { details: { runId } },
        );
      }
      await store.transact(settings.name, (rules) => {
        // Whatever was in progress when the run stopped was cut off: it goes back to the list.
        const requeued = rules.board.requeueInProgress(lead).map((task) => task.id);
        rules.emit({ type: 'team:resumed', data: { requeued } });
        reclaimForWaiting(rules.board, resumable.events);
        // Who joined and who departed in the run stays so.
        replayRoster(rules, resumable.events, members, settings.formation);
      });
      return { runId, resumed: true };
    }
    await store.transact(settings.name, ({ board, emit }) => {
      emit({ type: 'team:start', data: { lead, members, input } });
      // With fresh: false the list may hold the last run's tasks: seed only an empty one.
      if (board.counts().total > 0) return;
      for (const task of settings.tasks) board.createTask(task, lead);
    });
    return { runId, resumed: false };
  } catch (error) {
    // Opened, but not begun: this process does not run it, so another may.
    await store.leaveRun(settings.name, runId);
    throw error;
  }
}
