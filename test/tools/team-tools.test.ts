import { createTeamTools, MemoryStore, teamToolsFor } from 'agent-teams';
import { asSchema, type ToolSet } from 'ai';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { runTool } from '../helpers/tools.js';

async function toolsOf(agent: string) {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'] });
  const tools = createTeamTools({ store, team: 't' }, agent);
  const call = (name: string, input: Record<string, unknown> = {}) => runTool(tools, name, input);
  return { store, tools, call };
}

describe('team tools', () => {
  test('each role gets the seed’s set, plus get_task (and delete_task for the lead)', async () => {
    const { tools } = await toolsOf('lead');
    expect(Object.keys(teamToolsFor(tools, 'lead'))).toEqual([
      'create_task',
      'assign_task',
      'delete_task',
      'list_tasks',
      'get_task',
      'update_task',
      'send_message',
      'read_inbox',
    ]);
    expect(Object.keys(teamToolsFor(tools, 'member'))).toEqual([
      'list_tasks',
      'get_task',
      'claim_task',
      'update_task',
      'send_message',
      'read_inbox',
    ]);
  });

  test('every parameter of every tool has a description, and every tool one too', async () => {
    const { tools } = await toolsOf('lead');
    for (const [name, definition] of Object.entries(tools as ToolSet)) {
      expect(definition.description, name).toBeTruthy();
      const schema = (await asSchema(definition.inputSchema).jsonSchema) as {
        properties?: Record<string, { description?: string }>;
      };
      for (const [parameter, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${name}.${parameter}`).toBeTruthy();
      }
    }
  });

  test('the model reads no $schema nor safe-integer bounds, and the tool still refuses an unsafe integer', async () => {
    const { tools, call } = await toolsOf('lead');
    const schema = JSON.stringify(await asSchema((tools as ToolSet).list_tasks?.inputSchema).jsonSchema);
    expect(schema).toContain('"minimum":1');
    expect(schema).not.toContain('$schema');
    expect(schema).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(await call('list_tasks', { page: 2 ** 60 })).toMatchObject({ success: false });
    expect(await call('list_tasks', { page: 1 })).toMatchObject({ success: true });
  });

  test('a refusal answers { success: false, error } with the rule’s reason and never throws', async () => {
    const lead = await toolsOf('lead');
    await lead.call('create_task', { title: 'Research', id: 'research' });
    await lead.call('create_task', { title: 'Draft', id: 'draft', dependsOn: ['research'] });
    const member = createTeamTools({ store: lead.store, team: 't' }, 'a');
    const claim = await runTool(member, 'claim_task', { taskId: 'draft' });
    expect(claim).toEqual({ success: false, error: 'The task draft waits for research to be completed' });
    expect(await lead.call('send_message', { to: 'nobody', content: 'hi' })).toEqual({
      success: false,
      error: 'There is no agent "nobody" on the team: send to a, b, lead, everyone, user.',
    });
    expect(await lead.call('get_task', { taskId: 'nope' })).toMatchObject({ success: false });
  });

  test('the lead’s release (update_task status "pending") tells the member it took the task from; a member giving its own back is not told', async () => {
    const lead = await toolsOf('lead');
    await lead.call('create_task', { title: 'Research', assignee: 'a' });
    await lead.call('create_task', { title: 'Draft', assignee: 'b' });
    const a = createTeamTools({ store: lead.store, team: 't' }, 'a');
    const b = createTeamTools({ store: lead.store, team: 't' }, 'b');
    await runTool(a, 'claim_task', { taskId: 'task-1' });
    await runTool(b, 'claim_task', { taskId: 'task-2' });
    expect(await lead.call('update_task', { taskId: 'task-1', status: 'pending' })).toMatchObject({
      success: true,
      task: { status: 'pending' },
    });
    expect(await runTool(b, 'update_task', { taskId: 'task-2', status: 'pending' })).toMatchObject({
      success: true,
    });
    const told = await lead.store.transact('t', ({ mailbox }) =>
      ['a', 'b'].map((member) => mailbox.messages(member).map((message) => message.content)),
    );
    expect(told).toEqual([
      [
        'lead took task-1 ("Research") back from you: it is on the list for anyone again, no longer yours to do.',
      ],
      [],
    ]);
  });

  test('tools act as the agent they are bound to', async () => {
    const { store, call } = await toolsOf('a');
    expect(await call('send_message', { to: 'lead', content: 'From a' })).toMatchObject({
      success: true,
      to: ['lead'],
    });
    const inbox = await store.transact('t', ({ mailbox }) => mailbox.take('lead'));
    expect(inbox).toMatchObject([{ from: 'a', content: 'From a' }]);
    expect(await call('create_task', { title: 'Members may not plan?' })).toMatchObject({ success: true });
  });

  test('list_tasks shows statuses, owners, blockers, results and what the caller can take', async () => {
    const lead = await toolsOf('lead');
    await lead.call('create_task', { title: 'Research' });
    await lead.call('create_task', { title: 'Draft', dependsOn: ['task-1'] });
    const a = createTeamTools({ store: lead.store, team: 't' }, 'a');
    const run = (name: string, input: unknown = {}) => runTool(a, name, input);
    expect(await run('list_tasks')).toMatchObject({ youHold: null, youCanTake: ['task-1'] });
    await run('claim_task');
    await run('update_task', { taskId: 'task-1', status: 'completed', result: 'Facts' });
    expect(await run('list_tasks')).toEqual({
      success: true,
      counts: { total: 2, pending: 1, inProgress: 0, completed: 1, closed: 0, deleted: 0 },
      youHold: null,
      youCanTake: ['task-2'],
      page: 1,
      pages: 1,
      tasks: [
        { id: 'task-1', title: 'Research', status: 'completed', owner: 'a', result: 'Facts' },
        { id: 'task-2', title: 'Draft', status: 'pending', dependsOn: ['task-1'] },
      ],
    });
  });

  test('list_tasks stays bounded for long lists', async () => {
    const lead = await toolsOf('lead');
    await lead.store.createTeam('t', { lead: 'lead', members: ['a', 'b'], maxTasks: 200 });
    await lead.store.transact('t', ({ board }) => {
      for (let index = 0; index < 120; index++)
        board.createTask({ title: `Task ${index}`, description: 'x'.repeat(500) }, 'lead');
      board.claimTask('a', 'task-120');
      board.updateTask('task-120', { status: 'completed', result: 'r'.repeat(5000) }, 'a');
    });
    const listed = (await lead.call('list_tasks')) as {
      tasks: { id: string; result?: string }[];
      page: number;
      pages: number;
      next: string;
    };
    expect(listed.tasks).toHaveLength(40);
    expect(listed).toMatchObject({ page: 1, pages: 3, next: 'list_tasks { page: 2 } shows the next 40' });
    expect(JSON.stringify(listed).length).toBeLessThan(8_000);
    const full = (await lead.call('get_task', { taskId: 'task-120' })) as { task: { result: string } };
    expect(full.task.result).toHaveLength(5000);
  });
});

test('a tool an agent defines under a team tool’s name is kept', async () => {
  let called = false;
  const own = {
    list_tasks: {
      description: 'My own list',
      inputSchema: z.object({}),
      execute: async () => {
        called = true;
        return { mine: true };
      },
    },
  };
  const { team, model } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'T', assignee: 'a' })] }
          : 'Final',
      a: (call) => (call.step === 0 ? { toolCalls: [tool('list_tasks')] } : 'done'),
    }),
    { members: ['a'], agents: { a: { tools: own as never } } },
  );
  await team.run({ input: 'go' });
  expect(called).toBe(true);
  const second = model.calls.find((call) => call.agent === 'a' && call.step === 1);
  expect(second?.toolResults).toEqual([{ toolName: 'list_tasks', output: { mine: true } }]);
});

test('in a turn, read_inbox gives only what the turn was not given, and leaves it unread until the turn ends', async () => {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'] });
  const given = await store.transact('t', ({ mailbox }) => mailbox.send('lead', 'a', 'In the briefing'));
  const seen = new Set([given.id]);
  const a = createTeamTools({ store, team: 't', seen }, 'a');
  expect(await runTool(a, 'read_inbox')).toMatchObject({ success: true, messages: [] });
  await store.transact('t', ({ mailbox }) => mailbox.send('b', 'a', 'Arrived during the turn'));
  const read = await runTool(a, 'read_inbox');
  expect(read.messages).toMatchObject([{ from: 'b', content: 'Arrived during the turn' }]);
  expect(await runTool(a, 'read_inbox')).toMatchObject({ messages: [] });
  // Nothing is marked read by reading: a crash before the turn's end delivers them again.
  const unread = await store.transact('t', ({ mailbox }) => mailbox.unread('a'));
  expect(unread.map((message) => message.content)).toEqual(['In the briefing', 'Arrived during the turn']);
  expect(seen.size).toBe(2);
});
