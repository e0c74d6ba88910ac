import type { TeamEvent } from 'agent-teams';
import type { ScriptedCall, ScriptedModel } from 'agent-teams/testing';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { byAgent, testTeam, tool } from '../helpers/team.js';

// Real scripted-model runs over 1,000 tasks: every prompt (system prompt and briefing
// together) and every team tool's answer stays within promptBudgetTokens, measured with
// gpt-tokenizer's o200k encoding, and the final answer is still built from every result.

const TASKS = 1_000;
const tokens = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const seeded = (count: number) =>
  Array.from({ length: count }, (_, at) => ({ title: `Part ${at + 1} of the survey` }));

// Words to fill a result with: varied, so the text tokenises like prose, not like a repeated token.
const WORDS = 'tide moon sea pull gravity coast shore wave basin estuary current ebb flood spring neap'.split(
  ' ',
);
/** A 1,000-character result carrying its task's mark, which the synthesis must carry on. */
function result(taskId: string): string {
  let text = `MARK-${taskId.slice('task-'.length)}:`;
  for (let at = Number(taskId.slice(5)); text.length < 1_000; at = (at * 7 + 3) % 997)
    text += ` ${WORDS[at % WORDS.length]}${at}`;
  return text.slice(0, 1_000);
}
const marks = (text: string) => new Set(text.match(/MARK-\d+/g) ?? []);

/** Every call's system prompt and briefing, and every tool answer it read, in tokens. */
function largest(model: ScriptedModel): { prompt: number; answer: number } {
  let prompt = 0;
  let answer = 0;
  for (const call of model.calls) {
    prompt = Math.max(prompt, tokens(call.system) + tokens(call.prompt));
    for (const { output } of call.toolResults) answer = Math.max(answer, tokens(JSON.stringify(output)));
  }
  return { prompt, answer };
}

const synthesis = (call: ScriptedCall) => [...marks(call.prompt)].join(' ');

test('1,000 tasks of 1,000-character results: every prompt within the budget, the answer from every result', async () => {
  const { team, model, events } = testTeam(
    byAgent({
      lead: (call) => (call.reason === 'synthesis' ? synthesis(call) : 'The list is ready.'),
      // A member's first turn reads the list first: its answer too stays within the budget.
      a: (call) =>
        call.turn === 1 && call.step === 0 ? { toolCalls: [tool('list_tasks')] } : result(call.taskId ?? ''),
      b: (call) => result(call.taskId ?? ''),
      c: (call) => result(call.taskId ?? ''),
    }),
    { tasks: seeded(TASKS), maxTasks: TASKS, maxTurnsPerMember: TASKS, maxConcurrentMembers: 3 },
  );
  const run = await team.run({ input: 'Summarise the survey.' });
  expect(run.teamResult.stopReason).toBe('completed');
  const { prompt, answer } = largest(model);
  expect(prompt).toBeLessThanOrEqual(24_000);
  expect(answer).toBeLessThanOrEqual(24_000);

  // The synthesis was done in parts, each a counted turn of the lead with its own usage.
  const parts = events.filter(
    (event): event is TeamEvent<'team:member-started'> =>
      event.type === 'team:member-started' && event.data.reason === 'synthesis',
  );
  expect(parts.length).toBeGreaterThan(2);
  expect(parts.at(-1)?.data.synthesis?.final).toBe(true);
  const leadUsage = events.filter(
    (event) => event.type === 'team:turn-usage' && event.data.member === 'lead',
  ).length;
  expect(leadUsage).toBe(parts.length + 1); // the start turn, then every part
  expect(run.agentResults.lead?.turns).toBe(parts.length + 1);
  expect(run.usage.byAgent.lead?.inputTokens).toBeGreaterThan(0);

  // Each part read results no other part read; together, every result.
  const read = parts
    .filter((part) => part.data.synthesis?.level === 1)
    .flatMap((part) => part.data.synthesis?.inputs ?? []);
  expect(new Set(read).size).toBe(TASKS);
  expect(read).toHaveLength(TASKS);
  expect(marks(run.output).size).toBe(TASKS);

  // The member's list: paged, and the ids it can take counted, not listed.
  const listed = model.calls.find((call) => call.agent === 'a' && call.toolResults.length > 0)?.toolResults[0]
    ?.output as Record<string, unknown>;
  expect(listed).toMatchObject({ page: 1, pages: 25, next: 'list_tasks { page: 2 } shows the next 40' });
  expect(listed.youCanTake as string[]).toHaveLength(10);
  expect(listed.youCanTakeCount).toBeGreaterThan(900);
}, 120_000);

test('a lead stalled with 1,000 tasks open gets a summary of the list within the budget', async () => {
  const { team, model } = testTeam(
    byAgent({
      lead: (call) =>
        call.reason === 'stalled'
          ? { toolCalls: [tool('list_tasks', { status: 'pending', page: 25 })] }
          : 'Noted.',
    }),
    { tasks: seeded(TASKS), maxTasks: TASKS, selfClaim: false },
  );
  const run = await team.run({ input: 'Summarise the survey.' });
  expect(run.teamResult.stopReason).toBe('stalled');
  const stalled = model.calls.find((call) => call.reason === 'stalled' && call.step === 0);
  expect(stalled?.prompt).toContain('Nobody can go on: task-1 is not assigned to anyone;');
  expect(stalled?.prompt).toContain('and 980 more.');
  expect(stalled?.prompt).toContain('(1000 tasks: 1000 pending, 0 in progress, 0 completed)');
  expect(stalled?.prompt).toContain('960 more: list_tasks { status?, page? } pages through them');
  const start = model.calls.find((call) => call.reason === 'start');
  expect(start?.prompt).toContain('Already on the list (1000 tasks:');
  const lastPage = model.calls.find((call) => call.reason === 'stalled' && call.step === 1)?.toolResults[0]
    ?.output;
  expect(lastPage).toMatchObject({ status: 'pending', page: 25, pages: 25 });
  expect((lastPage as { tasks: unknown[] }).tasks).toHaveLength(40);
  const { prompt, answer } = largest(model);
  expect(prompt).toBeLessThanOrEqual(24_000);
  expect(answer).toBeLessThanOrEqual(24_000);
}, 60_000);
