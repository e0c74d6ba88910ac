import fc from 'fast-check';
import { expect, test } from 'vitest';
import { compareIds } from '../../src/board/task-order.js';

test('id order puts numbers in number order', () => {
  const ids = ['task-10', 'task-2', 'draft', 'task-1', 'task-02', 'research', 'task-1a', 'Task-3'];
  expect([...ids].sort(compareIds)).toEqual([
    'Task-3',
    'draft',
    'research',
    'task-1',
    'task-1a',
    'task-02',
    'task-2',
    'task-10',
  ]);
});

// The list is binary-searched by this order, so it must be a strict total order.
const id = fc.stringMatching(/^[a-c0-2-]{0,6}$/);

test('id order is a strict total order', () => {
  fc.assert(
    fc.property(id, id, id, (a, b, c) => {
      expect(Math.sign(compareIds(a, b)) + Math.sign(compareIds(b, a))).toBe(0);
      expect(compareIds(a, b) === 0).toBe(a === b);
      if (compareIds(a, b) < 0 && compareIds(b, c) < 0) expect(compareIds(a, c)).toBeLessThan(0);
    }),
    { numRuns: 5000 },
  );
});
