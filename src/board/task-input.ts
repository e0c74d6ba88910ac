import { checkKnownKeys, shown } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { checkName } from '../errors/names.js';
import { LIMITS } from '../events/limits.js';
import type { NewTask, TaskChange, TaskEdit } from './task.js';
import { generatedNumber, MAX_CHOSEN_TASK_NUMBER } from './task-list-state.js';

// Bounds keep one careless call from bloating every later prompt and file.
const MAX_TITLE_LENGTH = LIMITS.taskTitle;
const MAX_TEXT_LENGTH = LIMITS.taskText;

// A field the rules do not know (`depends_on`) is refused, never silently dropped.
const NEW_TASK_FIELDS = Object.keys({
  title: true,
  description: true,
  dependsOn: true,
  assignee: true,
  id: true,
} satisfies Record<keyof NewTask, true>);
const TASK_CHANGE_FIELDS = Object.keys({
  status: true,
  result: true,
  note: true,
  addDependsOn: true,
  removeDependsOn: true,
} satisfies Record<keyof TaskChange, true>);
const TASK_EDIT_FIELDS = Object.keys({
  title: true,
  description: true,
  addDependsOn: true,
  removeDependsOn: true,
} satisfies Record<keyof TaskEdit, true>);

function text(field: string, value: unknown, max: number, required: boolean): string | undefined {
  if (value === undefined || (value === null && !required)) return undefined;
  if (typeof value !== 'string') {
    throw new TeamError('invalid-input', `The task's ${field} must be a string.`, { details: { field } });
  }
  if (required && value.trim().length === 0) {
    throw new TeamError('invalid-input', `The task's ${field} must not be empty.`, { details: { field } });
  }
  if (value.length > max) {
    throw new TeamError(
      'invalid-input',
      `The task's ${field} is longer than ${max} characters; shorten it.`,
      {
        details: { field },
      },
    );
  }
  return value;
}

/**
 * A chosen task id: a name (at most 64 characters of letters, digits, '.', '_' and '-',
 * starting with a letter or digit) and, in the `task-N` form, N at most
 * `MAX_CHOSEN_TASK_NUMBER`, so generated ids after it stay exact.
 */
function checkTaskId(value: unknown): string {
  const id = checkName('task id', value);
  if (generatedNumber(id) > MAX_CHOSEN_TASK_NUMBER) {
    throw new TeamError(
      'invalid-name',
      `The task id ${shown(id)} has too large a number: task-N ids take N up to ${MAX_CHOSEN_TASK_NUMBER}. Choose another id, or leave it out.`,
      { details: { kind: 'task id', name: id } },
    );
  }
  return id;
}

/** A new task's fields, checked for type and size (not against the list: that is the rule's job). */
export function checkNewTask(input: NewTask): Required<Omit<NewTask, 'id' | 'assignee'>> & {
  id: string | undefined;
  assignee: string | undefined;
} {
  if (typeof input !== 'object' || input === null) {
    throw new TeamError('invalid-input', 'A new task must be an object with at least a title.');
  }
  checkKnownKeys('a new task', input, NEW_TASK_FIELDS);
  const title = text('title', input.title, MAX_TITLE_LENGTH, true) as string;
  const description = text('description', input.description, MAX_TEXT_LENGTH, false) ?? '';
  const dependsOn = input.dependsOn ?? [];
  if (!Array.isArray(dependsOn) || dependsOn.some((id) => typeof id !== 'string')) {
    throw new TeamError('invalid-input', "The task's dependsOn must be a list of task ids.");
  }
  const assignee = input.assignee ?? undefined;
  if (assignee !== undefined && typeof assignee !== 'string') {
    throw new TeamError('invalid-input', "The task's assignee must be a member's name.");
  }
  const id = input.id === undefined || input.id === null ? undefined : checkTaskId(input.id);
  return { title: title.trim(), description, dependsOn: [...new Set(dependsOn)], assignee, id };
}

/** Why a task is deleted: a non-empty text of at most `LIMITS.taskText` characters. */
export function checkReason(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim().length === 0) {
    throw new TeamError('invalid-input', 'Say why the task is deleted: the reason must not be empty.', {
      details: { field: 'reason' },
    });
  }
  return text('reason', reason, MAX_TEXT_LENGTH, true)?.trim() as string;
}

/** A list of task ids (`addDependsOn`, `removeDependsOn`): each once; an empty list is none. */
function idList(field: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
    throw new TeamError('invalid-input', `${field} must be a list of task ids.`, { details: { field } });
  }
  return value.length === 0 ? undefined : [...new Set(value as string[])];
}

/** The dependency edit a change or an edit asks for; an id in both lists is refused. */
function dependencyEdit(input: TaskChange | TaskEdit): {
  addDependsOn: string[] | undefined;
  removeDependsOn: string[] | undefined;
} {
  const addDependsOn = idList('addDependsOn', input.addDependsOn);
  const removeDependsOn = idList('removeDependsOn', input.removeDependsOn);
  const both = addDependsOn?.find((id) => removeDependsOn?.includes(id));
  if (both !== undefined) {
    throw new TeamError(
      'invalid-input',
      `${shown(both)} is in both addDependsOn and removeDependsOn: name it in one of them.`,
      { details: { taskId: both } },
    );
  }
  return { addDependsOn, removeDependsOn };
}

/** An edit's fields, checked for type and size (not against the list: that is the rule's job). */
export function checkTaskEdit(edit: TaskEdit): TaskEdit {
  if (typeof edit !== 'object' || edit === null) {
    throw new TeamError(
      'invalid-input',
      'A task edit must be an object with a title, a description, addDependsOn or removeDependsOn.',
    );
  }
  checkKnownKeys('a task edit', edit, TASK_EDIT_FIELDS);
  const title = text('title', edit.title, MAX_TITLE_LENGTH, true)?.trim();
  const description = text('description', edit.description, MAX_TEXT_LENGTH, false);
  const { addDependsOn, removeDependsOn } = dependencyEdit(edit);
  if ([title, description, addDependsOn, removeDependsOn].every((field) => field === undefined)) {
    throw new TeamError(
      'invalid-input',
      'Nothing to change: give a title, a description, addDependsOn or removeDependsOn.',
    );
  }
  return { title, description, addDependsOn, removeDependsOn };
}

/**
 * A change's fields, checked for type and size. Dependencies change in a change of their own
 * (answered as an edit), never with a status, a result or a note.
 */
export function checkTaskChange(change: TaskChange): TaskChange | { edit: TaskEdit } {
  if (typeof change !== 'object' || change === null) {
    throw new TeamError(
      'invalid-input',
      'A task change must be an object with a status, a result or a note (or addDependsOn, removeDependsOn).',
    );
  }
  checkKnownKeys('a task change', change, TASK_CHANGE_FIELDS);
  const dependencies = dependencyEdit(change);
  if (dependencies.addDependsOn !== undefined || dependencies.removeDependsOn !== undefined) {
    if (change.status !== undefined || change.result !== undefined || change.note !== undefined) {
      throw new TeamError(
        'invalid-input',
        'Change dependencies in a call of their own: addDependsOn and removeDependsOn do not go with a status, a result or a note.',
      );
    }
    return { edit: dependencies };
  }
  const { status } = change;
  if (status !== undefined && status !== 'completed' && status !== 'pending') {
    throw new TeamError(
      'invalid-input',
      `The status ${JSON.stringify(status)} cannot be set: use "completed" (with a result) or "pending" (to release the task).`,
    );
  }
  const result = text('result', change.result, MAX_TEXT_LENGTH, false);
  const note = text('note', change.note, MAX_TEXT_LENGTH, false);
  if (status === undefined && result === undefined && note === undefined) {
    throw new TeamError(
      'invalid-input',
      'Nothing to change: give a status, a result or a note (or addDependsOn, removeDependsOn).',
    );
  }
  if (result !== undefined && status !== 'completed') {
    throw new TeamError(
      'invalid-input',
      'A result goes with status "completed": set both to complete the task.',
    );
  }
  return { status, result, note };
}
