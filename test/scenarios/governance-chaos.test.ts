import { MemoryStore } from 'agent-teams';
import type { ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { chaosStore } from '../helpers/chaos-store.js';
import { seeds } from '../helpers/seeds.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

// Requests on a store whose every step is delayed at random, by seed: when a request is
// answered, and when the waiting member's turn comes, must not change what the run does.

const lead = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return {
      toolCalls: [
        createTask({ title: 'Build', assignee: 'a' }),
        createTask({ title: 'Check', assignee: 'b' }),
        createTask({ title: 'Ship', dependsOn: ['task-1', 'task-2'] }),
      ],
    };
  if (call.reason === 'synthesis') return 'Final';
  const requestId = call.prompt.match(/req-[\w-]+/)?.[0];
  const rejectFirst = call.prompt.includes('plan #1');
  return requestId && call.step === 0 && call.prompt.includes('Requests waiting')
    ? {
        toolCalls: [
          tool('answer_request', { requestId, approve: !rejectFirst, feedback: rejectFirst ? 'More.' : '' }),
        ],
      }
    : 'ok';
};

const member = (call: ScriptedCall) => {
  if (call.tools.includes('submit_plan'))
    return call.step === 0 ? { toolCalls: [tool('submit_plan', { plan: `plan #${call.turn}` })] } : 'Sent.';
  return call.reason === 'task' ? `${call.taskId} by ${call.agent}` : 'ok';
};

test.each(seeds(30))('plan requests end the same on a chaotic MemoryStore (seed %i)', async (seed) => {
  const { team, of } = testTeam(byAgent({ lead, a: member, b: member, c: member }), {
    store: chaosStore(new MemoryStore(), seed),
    maxConcurrentMembers: 1,
    agents: { a: { requirePlanApproval: true }, c: { requirePlanApproval: true } },
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.tasks.map((task) => task.result)).toEqual([
    'task-1 by a',
    'task-2 by b',
    expect.stringMatching(/^task-3 by [abc]$/),
  ]);
  const answers = of('team:request-answered').map((event) => `${event.data.requestId}:${event.data.approve}`);
  expect(answers.slice(0, 2)).toEqual(['req-a-1-1:false', 'req-a-2-1:true']);
  expect(of('team:request-expired')).toEqual([]);
  // Every request was answered once; nobody waits at the end.
  expect(of('team:request-opened').length).toBe(answers.length);
});
