import { describe, expect, test } from 'vitest';
import { newBoard, refusal } from '../helpers/board.js';

describe('createTask', () => {
  test('numbers tasks task-1, task-2, … and fills every field', () => {
    const { board } = newBoard();
    const first = board.createTask({ title: 'Research tides', description: 'Three facts' }, 'lead');
    const second = board.createTask({ title: 'Write', dependsOn: ['task-1'], assignee: 'b' }, 'lead');
    expect(first).toEqual({
      id: 'task-1',
      title: 'Research tides',
      description: 'Three facts',
      status: 'pending',
      owner: null,
      assignee: null,
      dependsOn: [],
      result: null,
      note: null,
      closed: false,
      createdBy: 'lead',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(second).toMatchObject({ id: 'task-2', dependsOn: ['task-1'], assignee: 'b' });
    expect(board.listTasks().map((task) => task.id)).toEqual(['task-1', 'task-2']);
  });

  test('takes a chosen id and refuses one that is taken', () => {
    const { board } = newBoard();
    board.createTask({ id: 'research', title: 'Research' }, 'lead');
    expect(refusal(() => board.createTask({ id: 'research', title: 'Again' }, 'lead'))).toEqual({
      code: 'task-id-taken',
      message: 'A task with the id research is on the list already; choose another id.',
    });
    expect(board.listTasks()).toHaveLength(1);
  });

  test('never generates an id a chosen one took', () => {
    const { board } = newBoard();
    board.createTask({ id: 'task-2', title: 'Chosen' }, 'lead');
    expect(board.createTask({ title: 'Generated' }, 'lead').id).toBe('task-3');
    board.createTask({ id: 'task-4', title: 'Chosen again' }, 'lead');
    expect(board.createTask({ title: 'Next' }, 'lead').id).toBe('task-5');
  });

  test('a dependency must be on the list already, so no cycle can form', () => {
    const { board } = newBoard();
    expect(refusal(() => board.createTask({ id: 'x', title: 'Loop', dependsOn: ['x'] }, 'lead')).code).toBe(
      'dependency-not-found',
    );
    expect(refusal(() => board.createTask({ title: 'Later', dependsOn: ['task-9'] }, 'lead'))).toEqual({
      code: 'dependency-not-found',
      message: 'The task task-9 is not on the list: create it first, then the tasks that depend on it.',
    });
    expect(board.listTasks()).toEqual([]);
  });

  test('the assignee must be a member: not the lead, not a stranger', () => {
    const { board } = newBoard();
    expect(refusal(() => board.createTask({ title: 'T', assignee: 'lead' }, 'lead')).code).toBe(
      'not-a-member',
    );
    expect(refusal(() => board.createTask({ title: 'T', assignee: 'zed' }, 'lead'))).toEqual({
      code: 'not-a-member',
      message: '"zed" is not a member of the team; the members are a, b, c.',
    });
    expect(board.listTasks()).toEqual([]);
  });

  test('the creator must be on the team', () => {
    const { board } = newBoard();
    expect(refusal(() => board.createTask({ title: 'T' }, 'mallory')).code).toBe('unknown-agent');
  });

  test('maxTasks bounds the list', () => {
    const { board } = newBoard({ maxTasks: 2 });
    board.createTask({ title: 'One' }, 'lead');
    board.createTask({ title: 'Two' }, 'lead');
    expect(refusal(() => board.createTask({ title: 'Three' }, 'lead')).code).toBe('task-limit');
    expect(board.listTasks()).toHaveLength(2);
  });

  test.each([
    [{ title: '' }, 'invalid-input'],
    [{ title: '   ' }, 'invalid-input'],
    [{ title: 42 }, 'invalid-input'],
    [{ title: 'x'.repeat(301) }, 'invalid-input'],
    [{ title: 'T', dependsOn: 'task-1' }, 'invalid-input'],
    [{ title: 'T', id: '../escape' }, 'invalid-name'],
    [{ title: 'T', id: '' }, 'invalid-name'],
    [null, 'invalid-input'],
  ])('bad input %j is refused with %s and changes nothing', (input, code) => {
    const { board, events } = newBoard();
    expect(refusal(() => board.createTask(input as never, 'lead')).code).toBe(code);
    expect(board.listTasks()).toEqual([]);
    expect(events).toEqual([]);
  });

  test('a field a new task does not have is refused, naming it', () => {
    const { board } = newBoard();
    board.createTask({ title: 'Research' }, 'lead');
    expect(refusal(() => board.createTask({ title: 'T', depends_on: ['task-1'] } as never, 'lead'))).toEqual({
      code: 'invalid-input',
      message:
        'Unknown option "depends_on" for a new task; the known ones are title, description, dependsOn, assignee, id.',
    });
    expect(board.listTasks()).toHaveLength(1);
  });

  test('emits team:task-created with the task and its creator', () => {
    const { board, events } = newBoard();
    const task = board.createTask({ title: 'T' }, 'lead');
    expect(events).toEqual([{ type: 'team:task-created', data: { task, by: 'lead' } }]);
  });

  test('tasks handed out are frozen values', () => {
    const { board } = newBoard();
    const task = board.createTask({ title: 'T', dependsOn: [] }, 'lead');
    expect(Object.isFrozen(task)).toBe(true);
    expect(Object.isFrozen(task.dependsOn)).toBe(true);
  });
});

test('creating the same task again answers the one on the list and changes nothing', () => {
  const { board, events } = newBoard();
  const first = board.createTask({ title: 'Research', description: 'Tides', assignee: 'a' }, 'lead');
  board.claimTask('a');
  expect(board.createTask({ title: 'Research', description: 'Tides', assignee: 'a' }, 'lead')).toEqual(
    board.getTask(first.id),
  );
  expect(board.createTask({ title: 'Research', description: 'Tides' }, 'lead').id).toBe(first.id);
  expect(board.listTasks()).toHaveLength(1);
  expect(events.filter((event) => event.type === 'team:task-created')).toHaveLength(1);
  // Another member, other dependencies or another creator make another task.
  expect(board.createTask({ title: 'Research', description: 'Tides', assignee: 'b' }, 'lead').id).toBe(
    'task-2',
  );
  expect(
    board.createTask({ title: 'Research', description: 'Tides', dependsOn: ['task-1'] }, 'lead').id,
  ).toBe('task-3');
  expect(board.createTask({ title: 'Research', description: 'Tides' }, 'a').id).toBe('task-4');
});
