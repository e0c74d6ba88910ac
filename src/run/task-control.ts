import { USER } from '../agent/participants.js';
import type { NewTask, TaskEdit, TeamTask } from '../board/task.js';
import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/team-error.js';
import type { TeamInfo, TeamRules, TeamStore } from '../store/team-store.js';
import type { TeamHooks } from '../tools/hooks.js';
import { judgeUserTask } from '../tools/hooks-tools.js';
import { assignAndTell, deleteAndTell, releaseAndTell } from '../tools/task-graph.js';
import { requireGoingRun } from './control.js';

// The person at the board: tasks the person (`user`) adds, edits, gives and deletes on a
// team's run, from any process that reaches its store (the run's handle, `agent-teams task`,
// the Studio). Each is one commit of the board's own rules, the lead's rights (see
// src/board/task-permissions.ts), so a refusal is the rule's `TeamError` and changes nothing;
// the run folds the commit like any other and acts on it (a new task is taken, a deleted
// one never is).

/** A task edit from the person: its text and dependencies (`TaskEdit`), and whom it is given to. */
export interface PersonTaskEdit extends TaskEdit {
  /**
   * The member to give the (pending) task to; `null` takes it back to the list, unassigned
   * (from the member working on it too, as the lead's release does).
   */
  assignee?: string | null;
}

const EDIT_FIELDS = ['title', 'description', 'addDependsOn', 'removeDependsOn', 'assignee'];

/**
 * Throws unless the team's current run goes (`team-not-found`, `not-live` when it never ran,
 * `run-ended`): a run that ended takes no more changes, and the next run starts with an empty
 * list. A run whose process died is still going: edits wait in its store for `resume`.
 */
async function requireGoingTeam(store: TeamStore, team: string): Promise<TeamInfo & { runId: string }> {
  const info = await store.getTeam(team);
  if (!info) throw new TeamError('team-not-found', `The store knows no team ${team}.`, { details: { team } });
  if (info.runId === null) {
    throw new TeamError(
      'not-live',
      `No run of ${team} is going, so no one would work its tasks: start a run (agent-teams run, or team.start), then change its tasks while it goes.`,
      { details: { team } },
    );
  }
  await requireGoingRun(store, team, info.runId);
  return { ...info, runId: info.runId };
}

/**
 * The person puts a task on the run's list (`agent-teams task add`); the same task twice is
 * added once. Given the team's `hooks`, its `onTaskCreated` judges the task first, as it
 * judges an agent's: rejected, it is never created (`hook-rejected`).
 */
export async function addTaskAsUser(
  store: TeamStore,
  team: string,
  task: NewTask,
  hooks?: TeamHooks,
): Promise<TeamTask> {
  const { runId, judgesTasks } = await requireGoingTeam(store, team);
  if (hooks) await judgeUserTask({ store, team, hooks: { hooks, runId } }, task);
  else if (judgesTasks) {
    throw new TeamError(
      'hook-missing',
      `The team ${team} judges every new task with its onTaskCreated hook, which is not at hand here: add the task with the team's file (agent-teams task add … --file <file>, or the Studio started on that file).`,
      { details: { team } },
    );
  }
  return store.transact(team, ({ board }) => board.createTask(task, USER));
}

/**
 * The person edits a pending task (`agent-teams task edit`): its title, description,
 * dependencies and assignee, all in one commit or none.
 */
export async function editTaskAsUser(
  store: TeamStore,
  team: string,
  taskId: string,
  edit: PersonTaskEdit,
): Promise<TeamTask> {
  if (typeof edit !== 'object' || edit === null) {
    throw new TeamError(
      'invalid-input',
      'A task edit is { title?, description?, addDependsOn?, removeDependsOn?, assignee? }.',
    );
  }
  checkKnownKeys('a task edit', edit, EDIT_FIELDS);
  const { assignee, ...shape } = edit;
  const reshaped = Object.values(shape).some((value) => value !== undefined);
  if (!reshaped && assignee === undefined) {
    throw new TeamError(
      'invalid-input',
      'Nothing to change: give a title, a description, dependencies to add or remove, or an assignee.',
    );
  }
  await requireGoingTeam(store, team);
  return store.transact(team, (rules) => {
    let task = reshaped ? rules.board.editTask(taskId, shape, USER) : undefined;
    if (assignee !== undefined) task = giveTo(rules, taskId, assignee);
    return task as TeamTask;
  });
}

/** Gives the task to `assignee`, or with `null` takes it back to the list (the lead's rules both). */
function giveTo(rules: TeamRules, taskId: string, assignee: string | null): TeamTask {
  return assignee === null
    ? releaseAndTell(rules, taskId, USER)
    : assignAndTell(rules, taskId, assignee, USER);
}

/**
 * The person gives a pending task to a member (`agent-teams task assign`), both members
 * concerned told; or, with `null` (`--none`), takes a task back to the list, unassigned: a
 * pending task loses its assignee, one in progress its member (told it is no longer its to do).
 */
export async function assignTaskAsUser(
  store: TeamStore,
  team: string,
  taskId: string,
  assignee: string | null,
): Promise<TeamTask> {
  if (assignee !== null && typeof assignee !== 'string') {
    throw new TeamError(
      'invalid-input',
      "An assignee is a member's name, or null to take the task back to the list.",
    );
  }
  await requireGoingTeam(store, team);
  return store.transact(team, (rules) => giveTo(rules, taskId, assignee));
}

/**
 * The person deletes a task with a reason (`agent-teams task delete`): it is kept as
 * `deleted` and never worked on; the tasks that waited for it no longer do, and their members
 * and the lead are told. Refused while a member holds it.
 */
export async function deleteTaskAsUser(
  store: TeamStore,
  team: string,
  taskId: string,
  reason: string,
): Promise<TeamTask> {
  await requireGoingTeam(store, team);
  return store.transact(team, (rules) => deleteAndTell(rules, taskId, reason, USER).task);
}
