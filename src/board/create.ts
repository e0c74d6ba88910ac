import { TeamError } from '../errors/index.js';
import { checkActor, checkMember } from '../state/roster.js';
import { freezeTask, type NewTask, type TeamTask } from './task.js';
import { checkNewTask } from './task-input.js';
import { findTask, generatedNumber, type TaskListState } from './task-list-state.js';
import type { RuleContext, Transition } from './transition.js';

/**
 * Create a task.
 * Checks: `by` is on the team; the fields are well formed; the list has room (`task-limit`);
 * a given id is free (`task-id-taken`); every dependency is on the list already
 * (`dependency-not-found`), so dependencies never form a cycle; the assignee is a member.
 * Changes: adds a pending task; raises the high watermark for `task-N` ids.
 * Events: `team:task-created`.
 */
export function createTask(
  state: TaskListState,
  input: NewTask,
  by: string,
  context: RuleContext,
): Transition<TeamTask> {
  checkActor(state.roster, by);
  const fields = checkNewTask(input);
  if (state.tasks.length >= state.maxTasks) {
    throw new TeamError(
      'task-limit',
      `The list is full: it holds at most ${state.maxTasks} tasks. Close tasks that are no longer needed or fold work into fewer tasks.`,
      { details: { maxTasks: state.maxTasks } },
    );
  }
  if (fields.id !== undefined && findTask(state, fields.id)) {
    throw new TeamError(
      'task-id-taken',
      `A task with the id ${fields.id} is on the list already; choose another id.`,
      {
        details: { taskId: fields.id },
      },
    );
  }
  for (const dependency of fields.dependsOn) {
    if (!findTask(state, dependency)) {
      throw new TeamError(
        'dependency-not-found',
        `The task ${dependency} is not on the list: create it first, then the tasks that depend on it.`,
        { details: { taskId: dependency } },
      );
    }
  }
  if (fields.assignee !== undefined) checkMember(state.roster, fields.assignee, 'be assigned tasks');

  let id = fields.id;
  let highWatermark = state.highWatermark;
  if (id === undefined) {
    // Skip numbers a chosen id took already, so a generated id is never refused.
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
