import { checkMember } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';
import { freezeTask, type NewTask, type TeamTask } from './task.js';
import { checkNewTask } from './task-input.js';
import { findTask, generatedNumber, type TaskListState } from './task-list-state.js';
import { checkBoardActor } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

/**
 * The task whose id is `id` or differs from it only in case: on a case-insensitive disk
 * the two would be one file. Exact matches are found by search; the rest by a scan.
 */
function sameIdIgnoringCase(state: TaskListState, id: string): TeamTask | undefined {
  const exact = findTask(state, id);
  if (exact) return exact;
  const lower = id.toLowerCase();
  return state.tasks.find((task) => task.id.length === id.length && task.id.toLowerCase() === lower);
}

/**
 * A task (not deleted) `by` put on the list already with the same title, description and dependencies (and
 * given to the same member, if the new one names one): creating it again is a no-op, so a
 * planning turn replayed after a crash, or a model that repeats itself, never doubles the plan.
 */
function sameTask(
  state: TaskListState,
  fields: ReturnType<typeof checkNewTask>,
  by: string,
): TeamTask | undefined {
  const deps = [...fields.dependsOn].sort().join('\n');
  return state.tasks.find(
    (task) =>
      task.status !== 'deleted' &&
      task.createdBy === by &&
      task.title === fields.title &&
      task.description === fields.description &&
      (fields.id === undefined || task.id === fields.id) &&
      (fields.assignee === undefined ||
        task.assignee === fields.assignee ||
        task.owner === fields.assignee) &&
      [...task.dependsOn].sort().join('\n') === deps,
  );
}

/**
 * Create a task.
 * Checks: `by` is on the team (or is the person running it, `user`); the fields are well formed; the list has room (`task-limit`);
 * a given id is free, ignoring case (`task-id-taken`); every dependency is on the list already
 * (`dependency-not-found`) and not deleted (`task-deleted`), so dependencies never form a cycle; the assignee is a member.
 * Changes: adds a pending task; raises the high watermark for `task-N` ids. A task `by` created
 * already with the same content is answered instead, and nothing changes (`sameTask`).
 * Events: `team:task-created`.
 */
export function createTask(
  state: TaskListState,
  input: NewTask,
  by: string,
  context: RuleContext,
): Transition<TeamTask> {
  checkBoardActor(state, by);
  const fields = checkNewTask(input);
  const existing = sameTask(state, fields, by);
  if (existing) return unchanged(existing);
  if (state.tasks.length >= state.maxTasks) {
    throw new TeamError(
      'task-limit',
      `The list is full: it holds at most ${state.maxTasks} tasks. Close tasks that are no longer needed or fold work into fewer tasks.`,
      { details: { maxTasks: state.maxTasks } },
    );
  }
  const taken = fields.id === undefined ? undefined : sameIdIgnoringCase(state, fields.id);
  if (taken) {
    throw new TeamError(
      'task-id-taken',
      taken.id === fields.id
        ? `A task with the id ${taken.id} is on the list already; choose another id.`
        : `The id ${fields.id} differs from the task ${taken.id} only in case; choose another id.`,
      { details: { taskId: fields.id } },
    );
  }
  for (const dependency of fields.dependsOn) {
    const found = findTask(state, dependency);
    if (!found) {
      throw new TeamError(
        'dependency-not-found',
        `The task ${dependency} is not on the list: create it first, then the tasks that depend on it.`,
        { details: { taskId: dependency } },
      );
    }
    if (found.status === 'deleted') {
      throw new TeamError('task-deleted', `The task ${dependency} was deleted: nothing can wait for it.`, {
        details: { taskId: dependency },
      });
    }
  }
  if (fields.assignee !== undefined) checkMember(state.roster, fields.assignee, 'be assigned tasks');

  let id = fields.id;
  let highWatermark = state.highWatermark;
  if (id === undefined) {
    // Chosen ids keep N small (MAX_CHOSEN_TASK_NUMBER), so this never runs out of exact
    // numbers; the check makes sure a state from elsewhere cannot make the loop spin.
    if (highWatermark + state.tasks.length >= Number.MAX_SAFE_INTEGER) {
      throw new TeamError(
        'task-limit',
        'No more task-N ids can be generated on this list; give the task an id.',
      );
    }
    // Skip numbers a chosen id took already, so a generated id is never refused. (A chosen
    // `TASK-N` in any case raised the watermark past N, so an exact search is enough here.)
    do id = `task-${++highWatermark}`;
    while (findTask(state, id));
  } else {
    highWatermark = Math.max(highWatermark, generatedNumber(id));
  }
  const task: TeamTask = freezeTask({
    id,
    title: fields.title,
    description: fields.description,
    status: 'pending',
    owner: null,
    assignee: fields.assignee ?? null,
    dependsOn: fields.dependsOn,
    result: null,
    note: null,
    closed: false,
    createdBy: by,
    createdAt: context.now,
    updatedAt: context.now,
  });
  return {
    value: task,
    tasks: [task],
    highWatermark,
    events: [{ type: 'team:task-created', data: { task, by } }],
  };
}
