import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runTool } from '../helpers/tools.js';
import { BAD_INPUT, call, expectRefusal, team } from './bad-input.js';

// Generated bad input, straight into each tool's execute (as a program or a broken loop
// would call it): every call answers { success: false, error } and changes nothing.

describe('generated bad input to every team tool', () => {
  test.each(Object.keys(BAD_INPUT))(
    '%s answers success: false with a reason and changes nothing',
    async (name) => {
      const { snapshot, toolsOf } = await team();
      const { agent, shape, rules } = BAD_INPUT[name] as (typeof BAD_INPUT)[string];
      const input = rules ? fc.oneof(shape, rules) : shape;
      const tools = toolsOf(agent);
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(input, async (bad) => {
          expectRefusal(await call(tools, name, bad));
          expect(await snapshot()).toBe(before);
        }),
        { numRuns: 250 },
      );
    },
  );
});

test('tools bound to a name not on the team refuse everything, even list_tasks', async () => {
  const { snapshot, toolsOf } = await team();
  const before = await snapshot();
  const valid: Record<string, Record<string, unknown>> = {
    create_task: { title: 'T' },
    assign_task: { taskId: 'task-4', assignee: 'b' },
    delete_task: { taskId: 'task-4', reason: 'r' },
    list_tasks: {},
    get_task: { taskId: 'task-1' },
    claim_task: {},
    update_task: { taskId: 'task-4', note: 'n' },
    send_message: { to: 'everyone', content: 'hi' },
    read_inbox: {},
  };
  for (const stranger of ['zed', 'lead ', 'everyone', '']) {
    const tools = toolsOf(stranger);
    for (const [name, input] of Object.entries(valid)) {
      expect(await runTool(tools, name, input), `${stranger}: ${name}`).toEqual({
        success: false,
        error: `${JSON.stringify(stranger)} is not on the team; its agents are lead, a, b.`,
      });
    }
  }
  expect(await snapshot()).toBe(before);
});

test('a bad input is answered with a reason that names the tool and the field', async () => {
  const { toolsOf } = await team();
  const lead = toolsOf('lead');
  const a = toolsOf('a');
  expect(await runTool(a, 'get_task', null)).toEqual({
    success: false,
    error: 'get_task takes an object of parameters (taskId, field, from), not null.',
  });
  expect(await runTool(a, 'read_inbox', 'now')).toEqual({
    success: false,
    error: 'read_inbox takes an object, {}, not a string.',
  });
  expect(await runTool(a, 'update_task', { taskId: 3, status: 'done' })).toEqual({
    success: false,
    error:
      'update_task: taskId must be a string, not a number; status must be one of "completed", "pending", not "done".',
  });
  expect(await runTool(lead, 'assign_task', { taskId: 'task-4' })).toEqual({
    success: false,
    error: 'assign_task: assignee is required (a string).',
  });
  expect(await runTool(lead, 'create_task', { title: 'T', depends_on: ['task-1'] })).toEqual({
    success: false,
    error:
      'create_task: there is no parameter "depends_on" (the parameters are title, description, dependsOn, assignee, id).',
  });
  expect(await runTool(lead, 'create_task', { title: 'T', dependsOn: ['task-1', 7] })).toEqual({
    success: false,
    error: 'create_task: dependsOn[1] must be a string, not a number.',
  });
});
