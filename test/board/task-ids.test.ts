import { InMemoryBlackboard, TeamTaskBoard } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { newBoard, refusal } from '../helpers/board.js';

describe('task ids', () => {
  test.each([
    ['task-9007199254740992', 'invalid-name'],
    ['task-1234567890123456789012', 'invalid-name'],
    ['task-1000000001', 'invalid-name'],
    ['TASK-00000000000000000000000000009007199254740993', 'invalid-name'],
    ['x'.repeat(65), 'invalid-name'],
    ['-x', 'invalid-name'],
    ['a b', 'invalid-name'],
    ['x.tmp', 'invalid-name'],
  ])('the chosen id %s is refused with %s and changes nothing', (id, code) => {
    const { board, events } = newBoard();
    board.createTask({ title: 'First' }, 'lead');
    const before = JSON.stringify(board.listTasks());
    expect(refusal(() => board.createTask({ id, title: 'T' }, 'lead')).code).toBe(code);
    expect(JSON.stringify(board.listTasks())).toBe(before);
    expect(events).toHaveLength(1);
    expect(board.createTask({ title: 'Next' }, 'lead').id).toBe('task-2');
  });

  test('a task number past the bound is refused with a reason that says the bound', () => {
    const { board } = newBoard();
    expect(refusal(() => board.createTask({ id: 'task-9007199254740992', title: 'T' }, 'lead'))).toEqual({
      code: 'invalid-name',
      message:
        'The task id "task-9007199254740992" has too large a number: task-N ids take N up to 1000000000. Choose another id, or leave it out.',
    });
  });

  test('a task number up to the bound is taken, and generated ids go on after it', () => {
    const { board } = newBoard();
    board.createTask({ id: 'task-1000000000', title: 'Chosen' }, 'lead');
    expect(board.createTask({ title: 'Next' }, 'lead').id).toBe('task-1000000001');
    expect(board.createTask({ title: 'After' }, 'lead').id).toBe('task-1000000002');
  });

  test('an id of 64 characters of letters, digits, ".", "_" and "-" is taken', () => {
    const { board } = newBoard();
    const id = `A1._-${'z'.repeat(59)}`;
    expect(board.createTask({ id, title: 'T' }, 'lead').id).toBe(id);
  });

  test('ids that differ only in case are one id (they would be one file on some disks)', () => {
    const { board } = newBoard();
    board.createTask({ id: 'Research', title: 'R' }, 'lead');
    expect(refusal(() => board.createTask({ id: 'research', title: 'Again' }, 'lead'))).toEqual({
      code: 'task-id-taken',
      message: 'The id research differs from the task Research only in case; choose another id.',
    });
    board.createTask({ id: 'TASK-3', title: 'Upper' }, 'lead');
    expect(board.createTask({ title: 'Generated' }, 'lead').id).toBe('task-4');
    expect(board.listTasks()).toHaveLength(3);
  });

  test('a long unknown id is shown cut in the refusal', () => {
    const { board } = newBoard();
    const { code, message } = refusal(() => board.getTask('x') ?? board.blockersOf('y'.repeat(100_000)));
    expect(code).toBe('task-not-found');
    expect(message.length).toBeLessThan(150);
  });

  test('an id that is not a string finds nothing, or is refused with task-not-found', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    for (const id of [null, undefined, 7, {}, ['task-1']]) {
      expect(board.getTask(id as never)).toBeUndefined();
      expect(refusal(() => board.blockersOf(id as never)).code).toBe('task-not-found');
      expect(refusal(() => board.updateTask(id as never, { note: 'n' }, 'lead')).code).toBe('task-not-found');
      expect(refusal(() => board.assignTask(id as never, 'a', 'lead')).code).toBe('task-not-found');
    }
  });

  test('a list whose watermark holds the last exact number refuses to generate, never loops', () => {
    const blackboard = new InMemoryBlackboard({ enabled: true, sections: {} });
    const board = TeamTaskBoard.initialize(blackboard, undefined, { lead: 'lead', members: ['a'] });
    (blackboard.read<{ highWatermark: number }>('team') as { highWatermark: number }).highWatermark =
      Number.MAX_SAFE_INTEGER;
    expect(refusal(() => board.createTask({ title: 'T' }, 'lead')).code).toBe('task-limit');
    expect(board.createTask({ id: 'chosen', title: 'T' }, 'lead').id).toBe('chosen');
  });
});
