import { expect, test } from 'vitest';
import {
  configSchema,
  inboxSchema,
  taskSchema,
  versionSchema,
} from '../../../src/store/file/file-schemas.js';

// The FileStore's own checks of what its files hold: a broken file is named with where it is
// wrong and what was expected there.

const task = {
  id: 'task-1',
  title: 'Research',
  description: '',
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
};

const issue = (result: {
  success: boolean;
  error?: { issues: { path: readonly unknown[]; message: string }[] };
}) => (result.success ? undefined : result.error?.issues[0]);

test('a whole file passes, with keys it does not know left out', () => {
  expect(taskSchema.parse({ ...task, extra: 1 })).toEqual(task);
  expect(versionSchema.parse({ epoch: 'e', version: 2, eventSeq: 0 })).toEqual({
    epoch: 'e',
    version: 2,
    eventSeq: 0,
  });
});

test.each([
  [
    taskSchema,
    { ...task, status: 'done' },
    ['status'],
    'Invalid option: expected one of "pending"|"in_progress"|"completed"|"deleted"',
  ],
  [
    taskSchema,
    { ...task, dependsOn: ['task-1', 7] },
    ['dependsOn', 1],
    'Invalid input: expected string, received number',
  ],
  [
    taskSchema,
    { ...task, title: undefined },
    ['title'],
    'Invalid input: expected string, received undefined',
  ],
  [taskSchema, [], [], 'Invalid input: expected object, received array'],
  [inboxSchema, [{}], [0, 'id'], 'Invalid input: expected string, received undefined'],
  [
    configSchema,
    { name: 'n', teamId: 'i', lead: 'l', members: [], selfClaim: true, maxTasks: 0 },
    ['maxTasks'],
    'Too small: expected number to be >=1',
  ],
  [
    versionSchema,
    { epoch: 'e', version: 1.5, eventSeq: 0 },
    ['version'],
    'Invalid input: expected int, received number',
  ],
  [
    versionSchema,
    { epoch: 'e', version: 1, eventSeq: 0, log: { runId: 'r', bytes: -1 } },
    ['log', 'bytes'],
    'Too small: expected number to be >=0',
  ],
])('a file that breaks its shape is refused where it breaks it (%#)', (schema, value, path, message) => {
  expect(issue(schema.safeParse(value))).toEqual({ path, message });
  expect(() => schema.parse(value)).toThrow(message);
});
