import { randomBytes } from 'node:crypto';
import { checkRoster } from '../agent/participants.js';
import { DEFAULT_MAX_TASKS } from '../board/task-list-state.js';
import { badOption, checkOptionKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { departedNames, memberNames, type RosterEntry, rosterFromNames } from '../roster/roster.js';
import type { TeamInfo, TeamSetup } from './team-store.js';

/** The info of a new team, or of a known one with a new setup (its id and run kept). */
export function describeTeam(
  name: string,
  setup: TeamSetup,
  existing: TeamInfo | undefined,
  now: Date,
  newTeamId: () => string,
): TeamInfo {
  if (typeof setup !== 'object' || setup === null) {
    throw new TeamError('invalid-input', `The team ${name} needs a setup with its lead and members.`);
  }
  const { lead, members } = checkRoster(setup);
  const selfClaim = setup.selfClaim ?? true;
  const maxTasks = setup.maxTasks ?? DEFAULT_MAX_TASKS;
  if (typeof selfClaim !== 'boolean')
    throw new TeamError('invalid-input', 'selfClaim must be true or false.');
  if (!Number.isInteger(maxTasks) || maxTasks < 1) {
    throw new TeamError(
      'invalid-input',
      `maxTasks must be a whole number of at least 1, not ${String(maxTasks)}.`,
    );
  }
  const maxMembers = setup.maxMembers ?? null;
  if (maxMembers !== null && (!Number.isInteger(maxMembers) || maxMembers < members.length)) {
    throw new TeamError(
      'invalid-input',
      `maxMembers must be a whole number of at least ${members.length} (the members), not ${String(maxMembers)}.`,
    );
  }
  const judgesTasks = setup.judgesTasks ?? false;
  if (typeof judgesTasks !== 'boolean')
    throw new TeamError('invalid-input', 'judgesTasks must be true or false.');
  const stamp = now.toISOString();
  const profiles = setup.profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null) {
    throw new TeamError(
      'invalid-input',
      'profiles must be an object of { description, model, mode } by agent name.',
    );
  }
  // A new setup makes every agent active again; one that stays keeps when it joined.
  const joined = new Map((existing?.roster ?? []).map((entry) => [entry.name, entry.joinedAt]));
  const entry = (agent: string, role: 'lead' | 'member'): RosterEntry => ({
    name: agent,
    role,
    description: profiles[agent]?.description ?? '',
    model: profiles[agent]?.model ?? '',
    mode: profiles[agent]?.mode ?? 'default',
    status: 'active',
    joinedAt: joined.get(agent) ?? stamp,
  });
  return {
    name,
    teamId: existing?.teamId ?? newTeamId(),
    lead,
    roster: [entry(lead, 'lead'), ...members.map((member) => entry(member, 'member'))],
    selfClaim,
    maxTasks,
    maxMembers,
    judgesTasks,
    runId: existing?.runId ?? null,
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
  };
}

/** Whether two infos of a team give it the same roster and options (a setup that changes nothing). */
export function sameSetup(a: TeamInfo, b: TeamInfo): boolean {
  return (
    a.lead === b.lead &&
    memberNames(a.roster).join('\u0000') === memberNames(b.roster).join('\u0000') &&
    a.selfClaim === b.selfClaim &&
    a.maxTasks === b.maxTasks &&
    a.maxMembers === b.maxMembers &&
    a.judgesTasks === b.judgesTasks &&
    departedNames(a.roster).length === departedNames(b.roster).length &&
    sameProfiles(a.roster, b.roster)
  );
}

function sameProfiles(a: readonly RosterEntry[], b: readonly RosterEntry[]): boolean {
  const profile = ({ name, description, model, mode }: RosterEntry) =>
    [name, description, model, mode].join('\u0000');
  return (
    a.length === b.length && a.every((entry, index) => profile(entry) === profile(b[index] as RosterEntry))
  );
}

export function requireTeam<T>(name: string, team: T | undefined): T {
  if (team === undefined) {
    throw new TeamError(
      'team-not-found',
      `The store knows no team ${name}: create it with store.createTeam(name, { lead, members }) or run it once.`,
      { details: { team: name } },
    );
  }
  return team;
}

/** A run id that sorts by start time and names its team: `newsroom-20261201T062341Z-3fa9c1`. */
export function newRunId(team: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${team}-${stamp}-${randomBytes(3).toString('hex')}`;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** Whether `id` is a run id (a folder name under `runs/` may be anything). */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id);
}

export function checkRunId(runId: unknown): string {
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    throw new TeamError('invalid-name', `${JSON.stringify(runId)} is not a run id.`, {
      details: { kind: 'run id' },
    });
  }
  return runId;
}

/**
 * The `afterSeq` of a read, checked: a whole number, 0 when not given. By hand, as
 * `agent-teams logs` reads without loading zod (see store-options.ts).
 */
export function checkAfterSeq(options: { afterSeq?: unknown } | undefined): number {
  if (options === undefined) return 0;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw badOption('readEvents', [], 'an object: { afterSeq? }', options);
  }
  checkOptionKeys('readEvents', options, ['afterSeq']);
  const afterSeq = options.afterSeq ?? 0;
  if (typeof afterSeq !== 'number' || !Number.isInteger(afterSeq) || afterSeq < 0) {
    throw badOption('readEvents', ['afterSeq'], 'a whole number of at least 0', afterSeq);
  }
  return afterSeq;
}

/** A team's info as a store recorded it: one written before rosters had profiles lists names instead. */
export type StoredInfo = Omit<TeamInfo, 'roster' | 'maxMembers' | 'judgesTasks'> & {
  readonly roster?: TeamInfo['roster'];
  readonly maxMembers?: number | null;
  readonly judgesTasks?: boolean;
  readonly members?: readonly string[];
  readonly departed?: readonly string[];
};

/** The info of a stored team, its roster made from the names it lists when it has none. */
export function infoOf(stored: StoredInfo): TeamInfo {
  const { members = [], departed = [], roster, maxMembers = null, judgesTasks = false, ...info } = stored;
  return {
    ...info,
    maxMembers,
    judgesTasks,
    roster: roster ?? rosterFromNames(info.lead, members, departed, info.createdAt),
  };
}
