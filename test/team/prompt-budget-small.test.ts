import type { TeamEvent } from 'agent-teams';
import type { ScriptedCall, ScriptedModel } from 'agent-teams/testing';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { byAgent, testTeam, tool } from '../helpers/team.js';

// Small budgets, where every part of a briefing has to give way: the bound holds for every
// prompt (system prompt and briefing, o200k tokens), and nothing is lost on the way.

const tokens = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const WORDS = 'tide moon sea pull gravity coast shore wave basin estuary current ebb flood'.split(' ');
const prose = (length: number, seed: number) => {
  let text = '';
  for (let at = seed; text.length < length; at = (at * 7 + 3) % 997)
    text += ` ${WORDS[at % WORDS.length]}${at}`;
  return text.slice(0, length);
};
const marks = (text: string, kind = 'MARK') => new Set(text.match(new RegExp(`${kind}-\\d+`, 'g')) ?? []);

function expectWithin(model: ScriptedModel, budget: number): void {
  for (const call of model.calls)
    expect(tokens(call.system) + tokens(call.prompt)).toBeLessThanOrEqual(budget);
}

test('a synthesis whose summaries are too long for one prompt is summarised again, a level up', async () => {
  const budget = 2_000;
  // Every synthesis reply repeats the marks it read, then runs long: the summaries outgrow the final prompt.
  const synthesis = (call: ScriptedCall) => `${[...marks(call.prompt)].join(' ')} ${prose(3_000, 5)}`;
  const { team, model, events } = testTeam(
    byAgent({
      lead: (call) => (call.reason === 'synthesis' ? synthesis(call) : 'Ready.'),
      a: (call) => `MARK-${call.taskId?.slice(5)} ${prose(1_000, Number(call.taskId?.slice(5)))}`,
    }),
    {
      members: ['a'],
      promptBudgetTokens: budget,
      tasks: Array.from({ length: 60 }, (_, at) => ({ title: `Part ${at + 1}` })),
      maxTasks: 60,
      maxTurnsPerMember: 60,
    },
  );
  const run = await team.run({ input: 'Summarise.' });
  expectWithin(model, budget);
  const parts = events
    .filter((event): event is TeamEvent<'team:member-started'> => event.type === 'team:member-started')
    .flatMap((event) => (event.data.synthesis ? [event.data.synthesis] : []));
  expect(Math.max(...parts.map((part) => part.level))).toBeGreaterThan(2);
  expect(parts.filter((part) => part.final)).toHaveLength(1);
  expect(marks(run.output).size).toBe(60);
}, 120_000);

test('messages a briefing has no room for stay unread and come in the next turn', async () => {
  const budget = 4_000;
  const sends = Array.from({ length: 6 }, (_, at) =>
    tool('send_message', { to: 'a', content: `MSG-${at} ${prose(6_000, at)}` }),
  );
  // a is in a task turn until the lead has sent all six, so its next turn is given them at once.
  let sent = () => {};
  const allSent = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const lead = (call: ScriptedCall) => {
    if (call.reason !== 'start') return 'Noted.';
    if (call.step === 0) return { toolCalls: [tool('create_task', { title: 'Wait', assignee: 'a' })] };
    if (call.step === 1) return { toolCalls: sends };
    sent();
    return 'Planned.';
  };
  const { team, model } = testTeam(
    (call) =>
      call.agent === 'lead' ? lead(call) : call.reason === 'task' ? allSent.then(() => 'Done.') : 'Read.',
    { members: ['a'], promptBudgetTokens: budget },
  );
  await team.run({ input: 'Brief a.' });
  expectWithin(model, budget);
  const turns = model.calls.filter(
    (call) => call.agent === 'a' && call.reason === 'message' && call.step === 0,
  );
  expect(turns.length).toBeGreaterThan(1);
  expect(turns[0]?.prompt).toMatch(/\(\d more messages wait for you: read_inbox gives them\)/);
  const shown = turns.flatMap((call) => [...marks(call.prompt, 'MSG')]);
  expect(new Set(shown).size).toBe(6);
  expect(shown).toHaveLength(6); // each once: none shown twice, none marked read unseen
}, 60_000);

test('a task that builds on more results than fit gets what fits and where the rest is', async () => {
  const budget = 3_000;
  const { team, model } = testTeam(
    byAgent({ a: (call) => `MARK-${call.taskId?.slice(5)} ${prose(4_000, Number(call.taskId?.slice(5)))}` }),
    {
      members: ['a'],
      promptBudgetTokens: budget,
      tasks: [
        ...Array.from({ length: 5 }, (_, at) => ({ title: `Source ${at + 1}` })),
        {
          title: 'Combine',
          description: prose(20_000, 9),
          dependsOn: ['task-1', 'task-2', 'task-3', 'task-4', 'task-5'],
        },
      ],
    },
  );
  await team.run({ input: 'Combine the sources.' });
  expectWithin(model, budget);
  const combine = model.calls.find((call) => call.taskId === 'task-6');
  expect(combine?.prompt).toContain('[cut: ');
  expect(combine?.prompt).toContain('get_task { taskId: "task-6" } gives the whole');
  expect(combine?.prompt).toMatch(/\[task-1\] Source 1\nMARK-1 /);
  expect(combine?.prompt).toMatch(/\(\d more results: get_task reads them\)/);
}, 60_000);

test('the final briefing gives an unread notice the room its results leave, counted when their bytes do not fit', async () => {
  const budget = 3_000;
  // One token a word: the reply's bytes are five times its tokens, so the briefing and the
  // notice that quotes it fit the room in tokens but not in bytes.
  const reply = ' tide'.repeat(500);
  const { team, model } = testTeam(
    byAgent({
      lead: (call) => (call.reason === 'synthesis' ? 'Final.' : 'Ready.'),
      a: () => reply,
    }),
    { members: ['a'], promptBudgetTokens: budget, tasks: [{ title: 'Tides', assignee: 'a' }] },
  );
  await team.run({ input: 'Write.' });
  expectWithin(model, budget);
  const synthesis = model.calls.find((call) => call.reason === 'synthesis')?.prompt ?? '';
  // The result, and the idle notice quoting it whole.
  expect(synthesis).toContain('Unread messages:');
  expect(synthesis).toContain('a is available');
  expect(synthesis.split(reply.trim())).toHaveLength(3);
}, 60_000);
