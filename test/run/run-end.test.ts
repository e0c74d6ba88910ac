import { applyEvent, emptyRunState, type TeamEvent } from 'agent-teams';
import type { ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { renderLive } from '../../src/cli/view/live-view.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const plan = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Build', assignee: 'a' })] };
  return call.reason === 'synthesis' ? 'Final' : 'ok';
};
const planner = (call: ScriptedCall) =>
  call.step === 0 ? { toolCalls: [tool('submit_plan', { plan: 'frame, then roof' })] } : 'ok';

test('a request whose asker stopped does not hold the run; the run ends and closes it', async () => {
  const { team, of } = testTeam(byAgent({ lead: plan, a: planner }), {
    members: ['a'],
    maxTurnsPerMember: 1,
    maxLeadTurns: 1,
    agents: { a: { requirePlanApproval: true } },
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('turn-limit');
  expect(of('team:request-expired').map((event) => event.data.feedback)).toEqual([
    'No answer before the run ended: the plan goes ahead.',
  ]);
  expect(of('team:complete')).toHaveLength(1);
});

test('the live view lists the open requests with the command that answers them', async () => {
  const view = emptyRunState();
  const frames: string[] = [];
  const { team } = testTeam(byAgent({ lead: plan, a: planner }), {
    members: ['a'],
    maxLeadTurns: 1,
    agents: { a: { requirePlanApproval: true } },
  });
  team.on('*', (event: TeamEvent) => {
    applyEvent(view, event);
    if (event.type === 'team:request-opened') frames.push(renderLive(view, Date.now(), 120).join('\n'));
  });
  const run = await team.start({ input: 'go' });
  for await (const event of run.events())
    if (event.type === 'team:request-forwarded') await run.respond(event.data.requestId, { approve: true });
  await run.result;
  expect(frames[0]).toContain('agent-teams respond <team> <id> --approve|--reject');
  expect(frames[0]).toContain('req-a-1-1 plan from a → lead: Plan for task-1: frame, then roof');
  expect(renderLive(view, Date.now(), 120).join('\n')).not.toContain('req-a-1-1');
});
