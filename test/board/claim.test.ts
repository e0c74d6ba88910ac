import { describe, expect, test } from 'vitest';
import { newBoard, refusal } from '../helpers/board.js';

describe('claimTask', () => {
  test('a pending task with an unfinished dependency cannot be claimed', () => {
    const { board } = newBoard();
    board.createTask({ id: 'research', title: 'Research' }, 'lead');
    board.createTask({ id: 'draft', title: 'Draft', dependsOn: ['research'] }, 'lead');
    expect(refusal(() => board.claimTask('a', 'draft'))).toEqual({
      code: 'dependency-unfinished',
      message: 'The task draft waits for research to be completed',
    });
    expect(board.getTask('draft')?.status).toBe('pending');
  });

  test('names every unfinished dependency', () => {
    const { board } = newBoard();
    board.createTask({ title: 'One' }, 'lead');
    board.createTask({ title: 'Two' }, 'lead');
    board.createTask({ title: 'Both', dependsOn: ['task-1', 'task-2'] }, 'lead');
    expect(refusal(() => board.claimTask('a', 'task-3')).message).toBe(
      'The task task-3 waits for task-1, task-2 to be completed',
    );
  });

  test('claiming makes the task in progress with the member as owner', () => {
    const { board, events } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    const claimed = board.claimTask('a', 'task-1');
    expect(claimed).toMatchObject({ id: 'task-1', status: 'in_progress', owner: 'a' });
    expect(events.at(-1)).toEqual({ type: 'team:task-claimed', data: { task: claimed, member: 'a' } });
  });

  test('two members never get the same task', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    board.claimTask('a', 'task-1');
    expect(refusal(() => board.claimTask('b', 'task-1'))).toEqual({
      code: 'task-in-progress',
      message: 'The task task-1 is in progress with a.',
    });
    expect(board.claimTask('b')).toBeUndefined();
    expect(board.getTask('task-1')?.owner).toBe('a');
  });

  test('a member holds one task at a time', () => {
    const { board } = newBoard();
    board.createTask({ title: 'One' }, 'lead');
    board.createTask({ title: 'Two' }, 'lead');
    board.claimTask('a', 'task-1');
    expect(refusal(() => board.claimTask('a', 'task-2'))).toEqual({
      code: 'holds-another-task',
      message: 'You are working on task-1; complete or release it before you claim task-2.',
    });
    expect(board.getTask('task-2')?.status).toBe('pending');
  });

  test('claiming the task it holds changes nothing and emits nothing', () => {
    const { board, events } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    const claimed = board.claimTask('a', 'task-1');
    const count = events.length;
    expect(board.claimTask('a', 'task-1')).toBe(claimed);
    expect(board.claimTask('a')).toBe(claimed);
    expect(events).toHaveLength(count);
  });

  test('without an id: assigned to the member first, then unassigned, each in id order', () => {
    const { board } = newBoard();
    board.createTask({ title: 'open 1' }, 'lead'); // task-1
    board.createTask({ title: 'for b' }, 'lead'); // task-2
    board.createTask({ title: 'for a, later', assignee: 'a' }, 'lead'); // task-3
    board.createTask({ title: 'for a, blocked', assignee: 'a', dependsOn: ['task-1'] }, 'lead'); // task-4
    board.assignTask('task-2', 'b', 'lead');
    expect(board.claimableBy('a').map((task) => task.id)).toEqual(['task-3', 'task-1']);
    expect(board.claimTask('a')?.id).toBe('task-3');
    expect(board.claimTask('c')?.id).toBe('task-1');
    expect(board.claimTask('c')?.id).toBe('task-1');
  });

  test('id order compares the numbers in ids as numbers', () => {
    const { board } = newBoard();
    for (let index = 1; index <= 11; index++) board.createTask({ title: `T${index}` }, 'lead');
    board.claimTask('a', 'task-1');
    board.updateTask('task-1', { status: 'completed', result: 'done' }, 'a');
    expect(
      board
        .claimableBy('a')
        .map((task) => task.id)
        .slice(0, 3),
    ).toEqual(['task-2', 'task-3', 'task-4']);
    expect(board.listTasks().at(-1)?.id).toBe('task-11');
  });

  test('a task assigned to another member cannot be claimed', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T', assignee: 'b' }, 'lead');
    expect(refusal(() => board.claimTask('a', 'task-1'))).toEqual({
      code: 'not-assigned',
      message: 'The task task-1 is assigned to b.',
    });
    expect(board.claimTask('a')).toBeUndefined();
  });

  test('without self-claim members take only tasks assigned to them', () => {
    const { board } = newBoard({ selfClaim: false });
    board.createTask({ title: 'open' }, 'lead');
    board.createTask({ title: 'for a', assignee: 'a' }, 'lead');
    expect(board.claimableBy('a').map((task) => task.id)).toEqual(['task-2']);
    expect(board.claimableBy('b')).toEqual([]);
    expect(refusal(() => board.claimTask('b', 'task-1')).code).toBe('not-assigned');
    expect(board.claimTask('b')).toBeUndefined();
  });

  test('only members claim; a completed task cannot be claimed', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T' }, 'lead');
    expect(refusal(() => board.claimTask('lead', 'task-1')).code).toBe('not-a-member');
    expect(refusal(() => board.claimTask('zed')).code).toBe('not-a-member');
    board.claimTask('a');
    board.updateTask('task-1', { status: 'completed', result: 'r' }, 'a');
    expect(refusal(() => board.claimTask('b', 'task-1')).code).toBe('task-completed');
    expect(refusal(() => board.claimTask('b', 'nope')).code).toBe('task-not-found');
  });

  test('a closed dependency counts as done', () => {
    const { board } = newBoard();
    board.createTask({ title: 'maybe' }, 'lead');
    board.createTask({ title: 'then', dependsOn: ['task-1'] }, 'lead');
    board.updateTask('task-1', { status: 'completed', result: 'not needed' }, 'lead');
    expect(board.claimTask('a')?.id).toBe('task-2');
  });
});
