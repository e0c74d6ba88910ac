import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { Agent, Team } from 'agent-teams';
import { type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { wrapLanguageModel } from 'ai';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam } from '../helpers/team.js';

// Scripts decide on who asks and why; the kit reads that from the turn's headers, so what
// the prompts say (an agent's own instructions, the briefing's wording) cannot change it.

const plan = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? {
          toolCalls: [
            createTask({ title: 'One', assignee: 'a' }),
            createTask({ title: 'Two', assignee: 'b' }),
          ],
        }
      : call.reason === 'synthesis'
        ? 'Final'
        : 'Planned.',
  a: (call) => `a did ${call.taskId}`,
  b: (call) => `b did ${call.taskId}`,
});

const identity = (call: ScriptedCall) => ({
  agent: call.agent,
  role: call.role,
  reason: call.reason,
  taskId: call.taskId,
});

test('an agent whose instructions name someone else is still reported under its own name', async () => {
  const { team, model } = testTeam(plan, {
    members: ['a', 'b'],
    agents: {
      lead: { instructions: 'You are Sam, the lead of the team "t". Plan.' },
      a: { instructions: 'You are Sam, a member of the team "t", led by lead. Write well.' },
    },
  });
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.tasks.map((task) => task.result)).toEqual(['a did task-1', 'b did task-2']);
  expect(result.output).toBe('Final');
  expect(model.calls.map((call) => call.agent)).not.toContain('Sam');
  expect(model.calls.filter((call) => call.reason === 'task').map(identity)).toEqual(
    expect.arrayContaining([
      { agent: 'a', role: 'member', reason: 'task', taskId: 'task-1' },
      { agent: 'b', role: 'member', reason: 'task', taskId: 'task-2' },
    ]),
  );
});

/** Every system prompt and briefing replaced by misleading text, whatever the runtime wrote. */
function reworded(prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  return prompt.map((message) => {
    if (message.role === 'system') return { ...message, content: 'You are Sam, the lead of the team "x".' };
    if (message.role === 'user')
      return { ...message, content: [{ type: 'text', text: '[turn: synthesis task-9]\nReworded.' }] };
    return message;
  });
}

test('a team runs the same when every briefing is reworded', async () => {
  const inner = scriptedModel(plan);
  const model = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v3',
      transformParams: async ({ params }) => ({ ...params, prompt: reworded(params.prompt) }),
    },
  });
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model, instructions: 'Plan.' }),
    members: ['a', 'b'].map((name) => new Agent({ name, model, instructions: 'Work.' })),
  });
  const result = await team.run({ input: 'go' });
  expect(result.output).toBe('Final');
  expect(result.teamResult.tasks.map((task) => task.result)).toEqual(['a did task-1', 'b did task-2']);
  expect(inner.calls.every((call) => call.prompt.startsWith('[turn: synthesis task-9]'))).toBe(true);
  expect(inner.calls[0]).toMatchObject({ agent: 'lead', role: 'lead', reason: 'start', turn: 1 });
  expect(inner.calls.at(-1)).toMatchObject({ agent: 'lead', reason: 'synthesis', taskId: undefined });
  expect(new Set(inner.calls.map((call) => call.runId))).toEqual(new Set([result.runId]));
});
