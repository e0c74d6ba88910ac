import { foldEvents } from 'agent-teams';
import type { ScriptedCall } from 'agent-teams/testing';
import { tool as aiTool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { answerRequestTool } from '../../src/tools/request-tools.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const plan = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Ship', assignee: 'a' })] };
  return call.reason === 'synthesis' ? 'Final' : 'ok';
};

function deployTool(deployed: string[]) {
  return aiTool({
    description: 'Deploy',
    inputSchema: z.object({ target: z.string() }),
    // Only production needs the person's approval.
    needsApproval: ({ target }) => target === 'prod',
    execute: async ({ target }) => {
      deployed.push(target);
      return `deployed to ${target}`;
    },
  });
}

test('a rejected tool call is refused with the feedback; a call needsApproval lets through runs at once', async () => {
  const deployed: string[] = [];
  const { team, of, model } = testTeam(
    byAgent({
      lead: plan,
      a: (call) =>
        call.step === 0
          ? { toolCalls: [tool('deploy', { target: 'staging' }), tool('deploy', { target: 'prod' })] }
          : JSON.stringify(call.toolResults.map((result) => result.output)),
    }),
    { members: ['a'], agents: { a: { tools: { deploy: deployTool(deployed) } } } },
  );
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type === 'team:request-opened')
      await run.respond(event.data.requestId, { approve: false, feedback: 'Not on a Friday.' });
  }
  const result = await run.result;
  expect(of('team:request-opened').map((event) => event.data.subject)).toEqual(['deploy {"target":"prod"}']);
  // staging ran in both turns; prod never did.
  expect(deployed).toEqual(['staging', 'staging']);
  expect(JSON.parse(result.teamResult.tasks[0]?.result ?? '[]')).toEqual([
    'deployed to staging',
    { success: false, error: 'deploy with this input was not approved (user rejected it): Not on a Friday.' },
  ]);
  expect(model.calls.find((call) => call.agent === 'a' && call.turn === 2)?.prompt).toContain(
    'rejected by user. Feedback: Not on a Friday.',
  );
});

test("the lead's answer_request refuses a request that is the person's to answer", async () => {
  const deployed: string[] = [];
  const { team } = testTeam(
    byAgent({
      lead: plan,
      a: (call) => (call.step === 0 ? { toolCalls: [tool('deploy', { target: 'prod' })] } : 'done'),
    }),
    { members: ['a'], agents: { a: { tools: { deploy: deployTool(deployed) } } } },
  );
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) if (event.type === 'team:request-opened') run.abort('enough');
  await run.result;
  const answer = answerRequestTool({
    store: team.store,
    team: 't',
    turn: {
      runId: run.runId,
      team: 't',
      agent: 'lead',
      role: 'lead',
      reason: 'message',
      turn: 9,
      taskId: null,
      messageIds: [],
      threadId: null,
    },
    agent: team.lead,
    settings: {
      workspaceRoot: null,
      allowedPaths: [],
      planApprovalTimeoutMs: 1,
      permissionTimeoutMs: 1,
      questionTimeoutMs: 1,
    },
    opened: [],
    approvedCall: null,
  });
  const execute = answer.execute as (input: unknown, options: unknown) => Promise<unknown>;
  expect(await execute({ requestId: 'req-a-1-1', approve: true }, {})).toEqual({
    success: false,
    error: 'The request req-a-1-1 is for the user to answer, not you.',
  });
  expect(await execute({ requestId: 'req-a-1-1', aprove: true }, {})).toMatchObject({
    success: false,
    error: expect.stringContaining('there is no parameter "aprove"'),
  });
  expect(
    foldEvents(await team.store.readEvents(run.runId)).governance.requests.get('req-a-1-1')?.status,
  ).toBe('open');
});
