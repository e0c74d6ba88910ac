import { TeamError } from '../errors/index.js';
import { freezeTask, type TaskEdit, type TaskEditField, type TeamTask } from './task.js';
import { checkTaskEdit } from './task-input.js';
import { findTask, type TaskListState } from './task-list-state.js';
import { checkBoardActor, refuseFinal, requireShaper, requireTask } from './task-permissions.js';
import { type RuleContext, type Transition, unchanged } from './transition.js';

/**
 * The way from `from` to `to` along `dependsOn` (both ends included), if `from` waits for `to`
 * directly or through others; `undefined` when it does not. Every task is walked once.
 */
function waitPath(state: TaskListState, from: string, to: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (id: string): string[] | undefined => {
    if (id === to) return [id];
    if (seen.has(id)) return undefined;
    seen.add(id);
    for (const next of findTask(state, id)?.dependsOn ?? []) {
      const rest = walk(next);
      if (rest) return [id, ...rest];
    }
    return undefined;
  };
  return walk(from);
}

/** Checks that `task` may wait for `id`: on the list, not deleted, and not waiting for `task` itself. */
function checkNewDependency(state: TaskListState, task: TeamTask, id: string): void {
  const dependency = findTask(state, id);
  if (!dependency) {
    throw new TeamError(
      'dependency-not-found',
      `The task ${id} is not on the list, so ${task.id} cannot wait for it; list_tasks shows the ids.`,
      { details: { taskId: task.id, dependency: id } },
    );
  }
  if (dependency.status === 'deleted') {
    throw new TeamError('task-deleted', `The task ${id} was deleted, so ${task.id} cannot wait for it.`, {
      details: { taskId: task.id, dependency: id },
    });
  }
  const circle = waitPath(state, id, task.id);
  if (circle) {
    const why =
      circle.length === 1
        ? `${task.id} cannot wait for itself.`
        : `${task.id} cannot wait for ${id}: ${id} already waits for ${task.id} (${circle.join(' → ')}), so neither could ever start.`;
    throw new TeamError('dependency-cycle', why, {
      details: { taskId: task.id, dependency: id, cycle: [task.id, ...circle] },
    });
  }
}

/**
 * Reshape a pending task: its title, its description, the tasks it waits for.
 * Checks: the edit is well formed (`invalid-input`); `by` is on the team or is the person;
 * the task exists and is not final (`task-completed`, `task-deleted`); `by` is the lead, the
 * person or the task's creator (`not-owner`); the task is pending (`task-in-progress`: a
 * member works on it from what it read; message it, or release the task first). Each added
 * dependency is on the list (`dependency-not-found`), not deleted (`task-deleted`), and does
 * not wait for this task, directly or through others (`dependency-cycle`, naming the
 * circle); each removed one is among the task's dependencies (`dependency-not-found`).
 * Changes: the title, description and `dependsOn` (added ids at its end). Adding a
 * dependency the task has already, or giving the text it has, changes nothing.
 * Events: `team:task-edited`, naming the fields changed and the dependencies added and removed.
 */
export function editTask(
  state: TaskListState,
  taskId: string,
  input: TaskEdit,
  by: string,
  context: RuleContext,
): Transition<TeamTask> {
  checkBoardActor(state, by);
  const edit = checkTaskEdit(input);
  const task = requireTask(state, taskId);
  refuseFinal(task);
  requireShaper(state, task, by, 'change');
  if (task.status === 'in_progress') {
    throw new TeamError(
      'task-in-progress',
      `The task ${task.id} is in progress with ${task.owner}: only a pending task changes. Message ${task.owner}, or release the task first.`,
      { details: { taskId: task.id, owner: task.owner } },
    );
  }
  for (const id of edit.removeDependsOn ?? []) {
    if (!task.dependsOn.includes(id)) {
      throw new TeamError(
        'dependency-not-found',
        `${task.id} does not wait for ${id}; it waits for ${task.dependsOn.join(', ') || 'nothing'}.`,
        { details: { taskId: task.id, dependency: id } },
      );
    }
  }
  const added = (edit.addDependsOn ?? []).filter((id) => !task.dependsOn.includes(id));
  for (const id of added) checkNewDependency(state, task, id);
  const removed = edit.removeDependsOn ?? [];
  const fields: TaskEditField[] = [];
  if (edit.title !== undefined && edit.title !== task.title) fields.push('title');
  if (edit.description !== undefined && edit.description !== task.description) fields.push('description');
  if (added.length > 0 || removed.length > 0) fields.push('dependsOn');
  if (fields.length === 0) return unchanged(task);
  const next = freezeTask({
    ...task,
    title: edit.title ?? task.title,
    description: edit.description ?? task.description,
    dependsOn: [...task.dependsOn.filter((id) => !removed.includes(id)), ...added],
    updatedAt: context.now,
  });
  return {
    value: next,
    tasks: [next],
    events: [
      {
        type: 'team:task-edited',
        data: { task: next, by, fields, addedDependsOn: added, removedDependsOn: removed },
      },
    ],
  };
}
