import { createTeamTools, MemoryStore } from 'agent-teams';
import type { ToolSet } from 'ai';
import fc from 'fast-check';
import { expect } from 'vitest';

// Generated bad input for the team tools, and the team it is bad for: shared by the tests
// that call the tools directly and the one that sends them through a model run.

/** Calls a tool's execute with exactly `input` (undefined included). */
export async function call(tools: ToolSet, name: string, input: unknown): Promise<Record<string, unknown>> {
  const execute = tools[name]?.execute as (
    input: unknown,
    options: unknown,
  ) => Promise<Record<string, unknown>>;
  return execute(input, { toolCallId: 'test', messages: [] });
}

export const AGENTS = ['lead', 'a', 'b'];
const IDS = ['task-1', 'task-2', 'task-3', 'task-4'];

/** Team t: task-1 done by a, task-2 held by a, task-3 for b waiting on task-2, task-4 open; unread mail. */
export async function team() {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'] });
  await store.transact('t', ({ board, mailbox }) => {
    board.createTask({ title: 'Done' }, 'lead');
    board.claimTask('a', 'task-1');
    board.updateTask('task-1', { status: 'completed', result: 'Facts' }, 'a');
    board.createTask({ title: 'Held' }, 'lead');
    board.claimTask('a', 'task-2');
    board.createTask({ title: 'Blocked', dependsOn: ['task-2'], assignee: 'b' }, 'lead');
    board.createTask({ title: 'Open' }, 'lead');
    mailbox.send('a', 'lead', 'For the lead');
    mailbox.send('lead', 'a', 'For a');
    mailbox.send('lead', 'b', 'For b');
  });
  // The team's whole state, as JSON: the tasks, their counts and every inbox with read marks.
  const snapshot = () =>
    store.transact('t', ({ board, mailbox }) =>
      JSON.stringify({
        tasks: board.listTasks(),
        counts: board.counts(),
        inboxes: AGENTS.map((agent) => mailbox.messages(agent)),
      }),
    );
  return { store, snapshot, toolsOf: (agent: string) => createTeamTools({ store, team: 't' }, agent) };
}

const huge = fc.constantFrom('x'.repeat(100_000), '\u0000'.repeat(70_000), '🌊'.repeat(30_000));
const anyText = fc.oneof({ arbitrary: fc.string({ maxLength: 80 }), weight: 5 }, huge);
const notAnObject = fc.oneof(
  fc.constantFrom(null, undefined, Number.NaN, () => 'call me'),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  anyText,
  fc.bigInt(),
  fc.array(fc.anything(), { maxLength: 3 }),
);
const notText = fc.anything().filter((value) => typeof value !== 'string' && value !== undefined);
const unknownId = anyText.filter((id) => !IDS.includes(id));

/** A valid-looking input with one key the tool does not have. */
function withJunkKey(base: Record<string, unknown>, known: readonly string[]) {
  return fc
    .tuple(
      fc.string({ minLength: 1, maxLength: 40 }).filter((key) => !known.includes(key)),
      fc.anything(),
    )
    .map(([key, value]) => ({ ...base, [key]: value }));
}

/** `base` with one of its string fields given a value of another type (or left out when required). */
function withWrongType(
  base: Record<string, unknown>,
  fields: readonly string[],
  required: readonly string[],
) {
  const wrong = fc
    .tuple(fc.constantFrom(...fields), notText)
    .map(([field, value]) => ({ ...base, [field]: value }));
  if (required.length === 0) return wrong;
  return fc.oneof(wrong, fc.constantFrom(...required.map((field) => ({ ...base, [field]: undefined }))));
}

/**
 * Bad input for each tool, with the agent it is bound to: `shape` is wrong whatever the
 * list holds (not an object, a parameter the tool lacks, a wrong type); `rules` is well
 * typed but refused by the rules on the team of `team()`. Every value here must be refused.
 */
export const BAD_INPUT: Record<
  string,
  { agent: string; shape: fc.Arbitrary<unknown>; rules?: fc.Arbitrary<unknown> }
> = {
  create_task: {
    agent: 'lead',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ title: 'T' }, ['title', 'description', 'dependsOn', 'assignee', 'id']),
      withWrongType({ title: 'T' }, ['title', 'description', 'assignee', 'id'], ['title']),
      fc.record({ title: fc.constant('T'), dependsOn: notText.filter((value) => !Array.isArray(value)) }),
    ),
    rules: fc.oneof(
      fc.record({ title: fc.constantFrom('', '   ', '\n\t', 'x'.repeat(301)) }),
      fc.record({
        title: fc.constant('T'),
        id: fc.oneof(
          fc.constantFrom('task-9007199254740992', 'task-1234567890123456789012', 'task-1000000001'),
          fc.constantFrom('x'.repeat(65), '../x', 'a b', 'x.tmp', '', 'task-1', 'TASK-2', 'Task-4'),
          anyText.filter((id) => id.length > 64 || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)),
        ),
      }),
      fc.record({ title: fc.constant('T'), dependsOn: fc.array(unknownId, { minLength: 1, maxLength: 3 }) }),
      fc.record({
        title: fc.constant('T'),
        assignee: anyText.filter((name) => name !== 'a' && name !== 'b'),
      }),
    ),
  },
  assign_task: {
    agent: 'lead',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ taskId: 'task-4', assignee: 'b' }, ['taskId', 'assignee']),
      withWrongType({ taskId: 'task-4', assignee: 'b' }, ['taskId', 'assignee'], ['taskId', 'assignee']),
    ),
    rules: fc.oneof(
      fc.record({
        taskId: fc.oneof(unknownId, fc.constantFrom('task-1', 'task-2')),
        assignee: fc.constant('b'),
      }),
      fc.record({
        taskId: fc.constant('task-4'),
        assignee: anyText.filter((name) => name !== 'a' && name !== 'b'),
      }),
    ),
  },
  list_tasks: {
    agent: 'a',
    shape: fc.oneof(notAnObject, withJunkKey({}, ['status', 'page'])),
    rules: fc.oneof(
      fc.record({ page: fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 2 })) }),
      fc.record({
        status: anyText.filter((text) => !['pending', 'in_progress', 'completed', 'deleted'].includes(text)),
      }),
    ),
  },
  get_task: {
    agent: 'a',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ taskId: 'task-1' }, ['taskId', 'field', 'from']),
      withWrongType({ taskId: 'task-1' }, ['taskId'], ['taskId']),
    ),
    rules: fc.record({ taskId: unknownId }),
  },
  claim_task: {
    agent: 'a',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({}, ['taskId']),
      withWrongType({ taskId: 'task-2' }, ['taskId'], []),
    ),
    // a holds task-2: every other task, or one that is not there, is refused.
    rules: fc.record({ taskId: fc.oneof(unknownId, fc.constantFrom('task-1', 'task-3', 'task-4')) }),
  },
  update_task: {
    agent: 'a',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ taskId: 'task-2', note: 'n' }, [
        'taskId',
        'status',
        'result',
        'note',
        'addDependsOn',
        'removeDependsOn',
      ]),
      withWrongType({ taskId: 'task-2', note: 'n' }, ['taskId', 'status', 'result', 'note'], ['taskId']),
      fc.record({
        taskId: fc.constant('task-4'),
        addDependsOn: fc.oneof(
          notText.filter((value) => !Array.isArray(value)),
          fc.array(notText, { minLength: 1, maxLength: 2 }),
        ),
      }),
    ),
    rules: fc.oneof(
      fc.record({ taskId: unknownId, note: fc.constant('n') }),
      fc.record({
        taskId: fc.constantFrom('task-1', 'task-3', 'task-4'),
        status: fc.constantFrom('pending', 'completed', undefined),
        result: fc.constantFrom('r', undefined),
        note: fc.constant('n'),
      }),
      fc.constantFrom(
        { taskId: 'task-2' },
        { taskId: 'task-2', result: 'r' },
        { taskId: 'task-2', status: 'completed' },
        { taskId: 'task-2', status: 'completed', result: '   ' },
        { taskId: 'task-2', status: 'pending', result: 'r' },
        { taskId: 'task-2', status: 'done', result: 'r' },
        { taskId: 'task-2', status: 'completed', result: 'x'.repeat(50_001) },
        { taskId: 'task-2', note: 'x'.repeat(50_001) },
        // Dependencies: a member that did not create the task, or with a status in the same call.
        { taskId: 'task-4', addDependsOn: ['task-2'] },
        { taskId: 'task-3', removeDependsOn: ['task-2'] },
        { taskId: 'task-2', addDependsOn: ['task-4'], note: 'n' },
        { taskId: 'task-4', addDependsOn: ['task-1'], removeDependsOn: ['task-1'] },
      ),
    ),
  },
  delete_task: {
    agent: 'lead',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ taskId: 'task-4', reason: 'r' }, ['taskId', 'reason']),
      withWrongType({ taskId: 'task-4', reason: 'r' }, ['taskId', 'reason'], ['taskId', 'reason']),
    ),
    rules: fc.oneof(
      // Not there, completed, or held by a.
      fc.record({
        taskId: fc.oneof(unknownId, fc.constantFrom('task-1', 'task-2')),
        reason: fc.constant('r'),
      }),
      fc.record({
        taskId: fc.constant('task-4'),
        reason: fc.constantFrom('', '   ', '\n', 'x'.repeat(50_001)),
      }),
    ),
  },
  send_message: {
    agent: 'a',
    shape: fc.oneof(
      notAnObject,
      withJunkKey({ to: 'b', content: 'hi' }, ['to', 'content']),
      withWrongType({ to: 'b', content: 'hi' }, ['to', 'content'], ['to', 'content']),
    ),
    rules: fc.oneof(
      fc.record({
        to: anyText.filter((name) => !['lead', 'b', 'everyone'].includes(name)),
        content: fc.constant('hi'),
      }),
      fc.record({ to: fc.constantFrom('b', 'lead', 'everyone'), content: fc.constantFrom('', '  ', '\n') }),
    ),
  },
  read_inbox: { agent: 'a', shape: fc.oneof(notAnObject, withJunkKey({}, [])) },
};

export function expectRefusal(reply: Record<string, unknown>) {
  expect(Object.keys(reply).sort()).toEqual(['error', 'success']);
  expect(reply.success).toBe(false);
  expect(typeof reply.error).toBe('string');
  expect((reply.error as string).length).toBeGreaterThan(10);
  expect((reply.error as string).length).toBeLessThanOrEqual(1_000);
}
