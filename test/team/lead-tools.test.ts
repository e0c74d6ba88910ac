import { Agent, MemoryStore, Team } from 'agent-teams';
import { manualClock, type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { tool as aiTool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const search = aiTool({
  description: 'Searches the web',
  inputSchema: z.object({ query: z.string() }),
  execute: async () => 'nothing',
});

/** A team whose lead has a tool of its own, with a workspace (members get file tools) and a catalog. */
function leadWithTools(delegate: boolean) {
  const model = scriptedModel((call) =>
    call.agent === 'lead' && call.reason === 'start' ? 'No team needed.' : 'ok',
  );
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model, instructions: 'You plan.', tools: { web_search: search } }),
    members: [new Agent({ name: 'a', model, instructions: 'You work.' })],
    catalog: { helper: new Agent({ name: 'helper', model, instructions: 'You help.' }) },
    workspace: { root: tempFolder('agent-teams-delegate-') },
    delegate,
  });
  return { team, model };
}

const COORDINATION = [
  'create_task',
  'assign_task',
  'delete_task',
  'list_tasks',
  'get_task',
  'update_task',
  'send_message',
  'read_inbox',
  'spawn_member',
  'retire_member',
  'team_status',
  'grant_paths',
];

test('delegate mode: the lead has the coordination tools only — none of its own, no member or file tools', async () => {
  const delegated = leadWithTools(true);
  await delegated.team.run({ input: 'Write about tides' });
  const [first] = delegated.model.calls;
  expect(first?.tools).toEqual(COORDINATION);
  expect(first?.system).toContain('You only coordinate');
  // The same team without it: the lead keeps its own tool.
  const free = leadWithTools(false);
  await free.team.run({ input: 'Write about tides' });
  expect(free.model.calls[0]?.tools).toEqual([...COORDINATION, 'web_search']);
  expect(free.model.calls[0]?.system).not.toContain('You only coordinate');
});

test('team_status reports a member waiting on its plan as waiting, with its request, its task, and how long since it did anything on the run’s clock', async () => {
  const clock = manualClock();
  const requestIn = (prompt: string) => prompt.match(/req-[\w-]+/)?.[0];
  const lead = (call: ScriptedCall) => {
    if (call.reason === 'start' && call.step === 0)
      return { toolCalls: [createTask({ title: 'Build', assignee: 'a' })] };
    if (call.reason === 'synthesis') return 'Final';
    const requestId = requestIn(call.prompt);
    if (!requestId) return 'ok';
    if (call.step === 0) {
      clock.advance(42_000); // the lead looks 42 s after a asked
      return { toolCalls: [tool('team_status')] };
    }
    if (call.step === 1) return { toolCalls: [tool('answer_request', { requestId, approve: true })] };
    return 'Approved.';
  };
  const planner = (call: ScriptedCall) => {
    if (call.tools.includes('submit_plan'))
      return call.step === 0 ? { toolCalls: [tool('submit_plan', { plan: 'Build it well' })] } : 'Submitted.';
    return 'Built it.';
  };
  const { team, model, of } = testTeam(byAgent({ lead, a: planner }), {
    members: ['a', 'b'],
    agents: { a: { requirePlanApproval: true } },
    clock,
    store: new MemoryStore({ now: clock.date }),
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  const requestId = of('team:request-opened')[0]?.data.requestId;
  expect(requestId).toMatch(/^req-a-/);
  const looked = model.calls.find(
    (call) => call.agent === 'lead' && call.reason !== 'start' && call.step === 1,
  );
  expect(looked?.toolResults[0]?.output).toEqual({
    success: true,
    members: [
      {
        name: 'a',
        status: 'waiting',
        waitingOn: { request: requestId },
        task: { id: 'task-1', title: 'Build' },
        turns: { used: 1, left: 7 },
        tokens: expect.any(Number),
        secondsSinceActive: 42,
      },
      {
        name: 'b',
        status: 'idle',
        task: null,
        turns: { used: 0, left: 8 },
        tokens: 0,
        secondsSinceActive: null,
      },
    ],
    active: 2,
    maxMembers: 10,
  });
});
