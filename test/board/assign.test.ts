import { describe, expect, test } from 'vitest';
import { newBoard, refusal } from '../helpers/board.js';

describe('assignTask', () => {
  test('the lead assigns and reassigns a pending task', () => {
    const { board, events } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    const first = board.assignTask('task-1', 'a', 'lead');
    const second = board.assignTask('task-1', 'b', 'lead');
    expect(second.assignee).toBe('b');
    expect(events.slice(-2)).toEqual([
      { type: 'team:task-assigned', data: { task: first, assignee: 'a', by: 'lead', previousOwner: null } },
      { type: 'team:task-assigned', data: { task: second, assignee: 'b', by: 'lead', previousOwner: 'a' } },
    ]);
  });

  test('assigning to the same member again changes nothing', () => {
    const { board, events } = newBoard();
    board.createTask({ title: 'T', assignee: 'a' }, 'lead');
    const count = events.length;
    board.assignTask('task-1', 'a', 'lead');
    expect(events).toHaveLength(count);
  });

  test('only the lead assigns, only pending tasks, only to members', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    expect(refusal(() => board.assignTask('task-1', 'b', 'a')).code).toBe('not-owner');
    expect(refusal(() => board.assignTask('task-1', 'lead', 'lead')).code).toBe('not-a-member');
    expect(refusal(() => board.assignTask('task-9', 'a', 'lead')).code).toBe('task-not-found');
    board.claimTask('a');
    expect(refusal(() => board.assignTask('task-1', 'b', 'lead'))).toEqual({
      code: 'task-in-progress',
      message: 'The task task-1 is in progress with a; release it (status "pending") first, then assign it.',
    });
    // The person releases by giving the task to nobody: the message says so.
    expect(refusal(() => board.assignTask('task-1', 'b', 'user')).message).toBe(
      'The task task-1 is in progress with a; take it back to the list first (an assignee of none), then assign it.',
    );
    board.updateTask('task-1', { status: 'completed', result: 'r' }, 'a');
    expect(refusal(() => board.assignTask('task-1', 'b', 'lead')).code).toBe('task-completed');
  });
});
