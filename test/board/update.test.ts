import { describe, expect, test } from 'vitest';
import { newBoard, refusal } from '../helpers/board.js';

function boardWithClaimedTask() {
  const made = newBoard();
  made.board.createTask({ title: 'Research' }, 'lead');
  made.board.createTask({ title: 'Draft', dependsOn: ['task-1'] }, 'lead');
  made.board.createTask({ title: 'Check', dependsOn: ['task-1', 'task-2'] }, 'lead');
  made.board.claimTask('a', 'task-1');
  return made;
}

describe('updateTask', () => {
  test('the owner completes its task with a result; the completion lists what it unblocks', () => {
    const { board, events } = boardWithClaimedTask();
    const done = board.updateTask('task-1', { status: 'completed', result: 'The moon pulls the sea' }, 'a');
    expect(done).toMatchObject({
      status: 'completed',
      owner: 'a',
      result: 'The moon pulls the sea',
      closed: false,
    });
    expect(events.at(-1)).toEqual({
      type: 'team:task-completed',
      data: { task: done, by: 'a', unblocked: ['task-2'] },
    });
    expect(board.blockersOf('task-3')).toEqual(['task-2']);
    expect(board.unblockedBy('task-2')).toEqual(['task-3']);
  });

  test('completing needs a result', () => {
    const { board } = boardWithClaimedTask();
    expect(refusal(() => board.updateTask('task-1', { status: 'completed' }, 'a'))).toEqual({
      code: 'result-required',
      message: 'Give the result of task-1 to complete it.',
    });
    expect(refusal(() => board.updateTask('task-1', { result: 'r' }, 'a')).code).toBe('invalid-input');
    expect(board.getTask('task-1')?.status).toBe('in_progress');
  });

  test('the owner releases its task to pending: back on the list for anyone', () => {
    const { board, events } = newBoard();
    board.createTask({ title: 'T', assignee: 'a' }, 'lead');
    board.claimTask('a');
    const released = board.updateTask('task-1', { status: 'pending', note: 'I lack the sources' }, 'a');
    expect(released).toMatchObject({
      status: 'pending',
      owner: null,
      assignee: null,
      note: 'I lack the sources',
    });
    expect(events.at(-1)).toEqual({
      type: 'team:task-updated',
      data: { task: released, by: 'a', from: 'in_progress', to: 'pending' },
    });
    expect(board.claimTask('b')?.id).toBe('task-1');
  });

  test('only the owner and the lead change a task', () => {
    const { board } = boardWithClaimedTask();
    expect(refusal(() => board.updateTask('task-1', { status: 'completed', result: 'mine' }, 'b'))).toEqual({
      code: 'not-owner',
      message: 'The task task-1 is in progress with a; only a and the lead can change it.',
    });
    expect(refusal(() => board.updateTask('task-2', { note: 'x' }, 'b'))).toEqual({
      code: 'not-owner',
      message: 'The task task-2 is not yours: claim it first, or ask the lead.',
    });
    expect(refusal(() => board.updateTask('task-1', { note: 'x' }, 'zed')).code).toBe('unknown-agent');
    expect(board.getTask('task-1')).toMatchObject({ status: 'in_progress', owner: 'a', note: null });
  });

  test('the lead releases an in-progress task but cannot complete the owner’s work', () => {
    const { board } = boardWithClaimedTask();
    expect(refusal(() => board.updateTask('task-1', { status: 'completed', result: 'r' }, 'lead')).code).toBe(
      'task-in-progress',
    );
    expect(board.updateTask('task-1', { status: 'pending' }, 'lead')).toMatchObject({
      status: 'pending',
      owner: null,
    });
    expect(board.heldBy('a')).toBeUndefined();
  });

  test('the lead closes a pending task that is no longer needed: done for dependents, yet distinguishable', () => {
    const { board, events } = boardWithClaimedTask();
    board.updateTask('task-1', { status: 'completed', result: 'facts' }, 'a');
    const closed = board.updateTask('task-2', { status: 'completed', note: 'covered by task-1' }, 'lead');
    expect(closed).toMatchObject({ status: 'completed', closed: true, owner: null, result: null });
    expect(events.at(-1)).toEqual({
      type: 'team:task-completed',
      data: { task: closed, by: 'lead', unblocked: ['task-3'] },
    });
    expect(board.counts()).toEqual({
      total: 3,
      pending: 1,
      inProgress: 0,
      completed: 2,
      closed: 1,
      deleted: 0,
    });
    expect(board.claimTask('b')?.id).toBe('task-3');
  });

  test('the lead unassigns a pending task by setting it pending', () => {
    const { board } = newBoard();
    board.createTask({ title: 'T', assignee: 'a' }, 'lead');
    expect(board.updateTask('task-1', { status: 'pending' }, 'lead')).toMatchObject({ assignee: null });
  });

  test('completed is final', () => {
    const { board } = boardWithClaimedTask();
    board.updateTask('task-1', { status: 'completed', result: 'r' }, 'a');
    for (const [change, by] of [
      [{ status: 'pending' }, 'a'],
      [{ note: 'more' }, 'a'],
      [{ status: 'pending' }, 'lead'],
      [{ status: 'completed', result: 'again' }, 'lead'],
    ] as const) {
      expect(refusal(() => board.updateTask('task-1', change, by))).toEqual({
        code: 'task-completed',
        message: 'The task task-1 is completed; completed tasks are final.',
      });
    }
    expect(board.getTask('task-1')).toMatchObject({ status: 'completed', result: 'r', note: null });
  });

  test('a note alone changes the note and keeps the status', () => {
    const { board, events } = boardWithClaimedTask();
    const noted = board.updateTask('task-1', { note: 'halfway' }, 'a');
    expect(noted).toMatchObject({ status: 'in_progress', note: 'halfway' });
    expect(events.at(-1)).toMatchObject({
      type: 'team:task-updated',
      data: { from: 'in_progress', to: 'in_progress' },
    });
  });

  test.each([
    [{}, 'invalid-input'],
    [{ status: 'in_progress' }, 'invalid-input'],
    [{ status: 'done', result: 'x' }, 'invalid-input'],
    [{ note: 7 }, 'invalid-input'],
    [{ status: 'completed', output: 'x' }, 'invalid-input'],
  ])('bad change %j is refused with %s', (change, code) => {
    const { board } = boardWithClaimedTask();
    expect(refusal(() => board.updateTask('task-1', change as never, 'a')).code).toBe(code);
    expect(board.getTask('task-1')).toMatchObject({ status: 'in_progress', note: null });
  });
});

describe('releaseMember', () => {
  test('gives back the held task and unassigns the pending ones', () => {
    const { board } = newBoard();
    board.createTask({ title: 'held', assignee: 'a' }, 'lead');
    board.createTask({ title: 'waiting', assignee: 'a' }, 'lead');
    board.createTask({ title: 'other', assignee: 'b' }, 'lead');
    board.claimTask('a');
    const changed = board.releaseMember('a', 'a');
    expect(changed.map((task) => task.id)).toEqual(['task-1', 'task-2']);
    expect(board.listTasks().map((task) => [task.status, task.assignee])).toEqual([
      ['pending', null],
      ['pending', null],
      ['pending', 'b'],
    ]);
    expect(refusal(() => board.releaseMember('b', 'a')).code).toBe('not-owner');
  });
});
