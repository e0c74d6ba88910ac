import type { TeamTask } from '../board/task.js';
import {
  addTaskAsUser,
  assignTaskAsUser,
  deleteTaskAsUser,
  editTaskAsUser,
  type PersonTaskEdit,
} from '../run/task-control.js';
import type { TeamStore } from '../store/team-store.js';
import type { TeamHooks } from '../tools/hooks.js';
import { CliError } from './cli-error.js';
import { knownTeam } from './known-team.js';

// `agent-teams task add|edit|assign|delete`: the person at the board of a team's run, from
// any shell. Each is a commit of the board's rules as `user` (see src/run/task-control.ts),
// which the run's process folds like any other; a refusal is the rule's reason, on one line.

export interface TaskAddFlags {
  readonly description?: string;
  readonly dependsOn?: readonly string[];
  readonly assignee?: string;
  readonly id?: string;
  /** The team's file: its `onTaskCreated` hook judges the task, as it judges the lead's. */
  readonly file?: string;
}

export interface TaskEditFlags {
  readonly title?: string;
  readonly description?: string;
  readonly addDependsOn?: readonly string[];
  readonly removeDependsOn?: readonly string[];
  readonly assignee?: string;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

/** `task-4 "Count the boats" (pending, for b, after task-1)`: a task in one line. */
function described(task: TeamTask): string {
  const who = task.owner ?? task.assignee;
  const details = [task.status, ...(who ? [`for ${who}`] : [])];
  if (task.dependsOn.length > 0) details.push(`after ${task.dependsOn.join(', ')}`);
  return `${task.id} "${task.title}" (${details.join(', ')})`;
}

/** Ids given as several words or with commas (`--depends-on task-1,task-2`). */
function ids(list: readonly string[] | undefined): string[] | undefined {
  return list?.flatMap((each) => each.split(',')).filter((id) => id !== '');
}

/** The hooks of the team named `team` in `file` (`--file`). */
async function hooksIn(file: string, team: string): Promise<TeamHooks> {
  const { loadTeams } = await import('./load-teams.js');
  const teams = Object.values(await loadTeams(file));
  const found = teams.find((candidate) => candidate.name === team);
  if (!found) {
    const names = teams.map((candidate) => candidate.name).join(', ');
    throw new CliError(`${file} defines no team named "${team}"; its teams: ${names}`);
  }
  return found.hooks;
}

export async function addTaskCommand(
  store: TeamStore,
  team: string,
  title: string,
  flags: TaskAddFlags,
): Promise<void> {
  const hooks = flags.file === undefined ? undefined : await hooksIn(flags.file, team);
  await knownTeam(store, team);
  const task = await addTaskAsUser(
    store,
    team,
    {
      title,
      ...(flags.description === undefined ? {} : { description: flags.description }),
      ...(flags.dependsOn === undefined ? {} : { dependsOn: ids(flags.dependsOn) }),
      ...(flags.assignee === undefined ? {} : { assignee: flags.assignee }),
      ...(flags.id === undefined ? {} : { id: flags.id }),
    },
    hooks,
  );
  print(`added ${described(task)} to ${team}`);
}

export async function editTaskCommand(
  store: TeamStore,
  team: string,
  taskId: string,
  flags: TaskEditFlags,
): Promise<void> {
  const edit: PersonTaskEdit = {
    ...(flags.title === undefined ? {} : { title: flags.title }),
    ...(flags.description === undefined ? {} : { description: flags.description }),
    ...(flags.addDependsOn === undefined ? {} : { addDependsOn: ids(flags.addDependsOn) }),
    ...(flags.removeDependsOn === undefined ? {} : { removeDependsOn: ids(flags.removeDependsOn) }),
    ...(flags.assignee === undefined ? {} : { assignee: flags.assignee }),
  };
  if (Object.keys(edit).length === 0) {
    throw new CliError(
      'nothing to change: give --title, --description, --add-depends-on, --remove-depends-on or --assignee',
    );
  }
  await knownTeam(store, team);
  print(`changed ${described(await editTaskAsUser(store, team, taskId, edit))} in ${team}`);
}

export interface TaskAssignFlags {
  /** To nobody: the task goes back to the list. */
  readonly none?: boolean;
}

export async function assignTaskCommand(
  store: TeamStore,
  team: string,
  taskId: string,
  member: string | undefined,
  flags: TaskAssignFlags,
): Promise<void> {
  if (flags.none && member !== undefined) {
    throw new CliError(`give a member or --none, not both (${member} and --none)`);
  }
  if (!flags.none && member === undefined) {
    throw new CliError('give the member to assign the task to, or --none to take it back to the list');
  }
  await knownTeam(store, team);
  const task = await assignTaskAsUser(store, team, taskId, member ?? null);
  print(
    member === undefined ? `took back ${described(task)} in ${team}` : `gave ${described(task)} in ${team}`,
  );
}

export async function deleteTaskCommand(
  store: TeamStore,
  team: string,
  taskId: string,
  reason: string,
): Promise<void> {
  await knownTeam(store, team);
  const task = await deleteTaskAsUser(store, team, taskId, reason);
  print(`deleted ${task.id} "${task.title}" from ${team}: ${task.note ?? reason}`);
}
