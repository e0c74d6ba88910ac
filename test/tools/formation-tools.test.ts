import { Agent, MemoryStore } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { retireMemberTool, spawnMemberTool } from '../../src/tools/formation-tools.js';
import { teamStatusTool } from '../../src/tools/team-status-tool.js';
import { call, expectRefusal } from './bad-input.js';

// Generated bad input straight into the lead's tools over its team: every call answers
// { success: false, error } with a reason, and the roster and inboxes stay as they were.

const model = scriptedModel([]);
const lead = new Agent({ name: 'lead', model, instructions: 'You plan.' });
const members = ['a', 'b'].map((name) => new Agent({ name, model, instructions: `You are ${name}.` }));
const formation = {
  catalog: { helper: new Agent({ name: 'helper', model, instructions: 'You help.' }) },
  spawnModels: [model],
  maxMembers: 3,
  delegate: false,
};

/** Team t (lead, a, b; three members at most, a run going) and the lead's tools over it. */
async function team() {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'], maxMembers: 3 });
  const { runId } = await store.startRun('t');
  await store.transact('t', ({ mailbox }) => mailbox.send('lead', 'a', 'For a'));
  const turn = {
    runId: runId as string,
    team: 't',
    agent: 'lead',
    role: 'lead',
    reason: 'start',
    turn: 1,
    taskId: null,
    messageIds: [],
    threadId: null,
  } as const;
  const context = {
    store,
    team: 't',
    turn,
    lead,
    members,
    formation,
    promptBudgetTokens: 24_000,
    pricing: {},
  };
  const tools = {
    spawn_member: spawnMemberTool(context),
    retire_member: retireMemberTool(context),
    team_status: teamStatusTool({
      ...context,
      maxTurnsPerMember: 8,
      maxMembers: 3,
      clock: { now: () => 0, setTimer: () => () => {} },
    }),
  };
  const snapshot = () =>
    store.transact('t', ({ roster, mailbox }) =>
      JSON.stringify({
        roster: roster.entries(),
        inboxes: ['a', 'b'].map((agent) => mailbox.messages(agent)),
      }),
    );
  return { tools, snapshot };
}

const huge = fc.constantFrom('x'.repeat(100_000), '\u0000'.repeat(70_000), '🌊'.repeat(30_000));
const anyText = fc.oneof({ arbitrary: fc.string({ maxLength: 80 }), weight: 5 }, huge);
const notAnObject = fc.oneof(
  fc.constantFrom(null, undefined, Number.NaN, () => 'call me'),
  fc.boolean(),
  fc.integer(),
  anyText,
  fc.array(fc.anything(), { maxLength: 3 }),
);
const notText = fc.anything().filter((value) => typeof value !== 'string' && value !== undefined);
const junkKey = (base: Record<string, unknown>, known: readonly string[]) =>
  fc
    .tuple(
      fc.string({ minLength: 1, maxLength: 40 }).filter((key) => !known.includes(key)),
      fc.anything(),
    )
    .map(([key, value]) => ({ ...base, [key]: value }));

const BAD: Record<string, fc.Arbitrary<unknown>> = {
  spawn_member: fc.oneof(
    notAnObject,
    junkKey({ name: 'c', definition: 'helper' }, ['name', 'definition', 'instructions', 'model']),
    fc
      .tuple(fc.constantFrom('name', 'definition', 'instructions', 'model'), notText)
      .map(([field, value]) => ({ name: 'c', definition: 'helper', [field]: value })),
    // Well typed, refused by the rules: a name not allowed or taken, a definition or model not
    // allowed, no instructions, too long ones.
    fc.record({
      name: fc.oneof(fc.constantFrom('', 'a', 'lead', 'user', 'everyone', '../x', 'a b'), huge),
      definition: fc.constant('helper'),
    }),
    fc.record({
      name: fc.constant('c'),
      definition: anyText.filter((definition) => definition !== 'helper'),
    }),
    fc.record({ name: fc.constant('c'), instructions: fc.constant('Help.'), model: anyText }),
    fc.record({ name: fc.constant('c'), instructions: fc.constantFrom('', '   ') }),
    fc.record({ name: fc.constant('c'), instructions: fc.constant('x'.repeat(20_001)) }),
  ),
  retire_member: fc.oneof(
    notAnObject,
    junkKey({ name: 'a' }, ['name']),
    fc.record({ name: notText }),
    fc.record({ name: anyText.filter((name) => name !== 'a' && name !== 'b') }),
  ),
  team_status: fc.oneof(notAnObject, junkKey({}, [])),
};

describe('generated bad input to the lead’s tools over its team', () => {
  test.each(Object.keys(BAD))('%s answers success: false with a reason and changes nothing', async (name) => {
    const { tools, snapshot } = await team();
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(BAD[name] as fc.Arbitrary<unknown>, async (bad) => {
        expectRefusal(await call(tools, name, bad));
        expect(await snapshot()).toBe(before);
      }),
      { numRuns: 150 },
    );
  });
});

test('retiring a member that was asked already asks nothing more; the lead is not a member', async () => {
  const { tools, snapshot } = await team();
  expect(await call(tools, 'retire_member', { name: 'a' })).toEqual({
    success: true,
    member: 'a',
    asked: true,
  });
  const asked = await snapshot();
  expect(await call(tools, 'retire_member', { name: 'a' })).toEqual({
    success: true,
    member: 'a',
    asked: false,
    note: 'a was asked to shut down already.',
  });
  expect(await call(tools, 'retire_member', { name: 'lead' })).toEqual({
    success: false,
    error: '"lead" is not a member of the run; its members are a, b.',
  });
  expect(await snapshot()).toBe(asked);
});
