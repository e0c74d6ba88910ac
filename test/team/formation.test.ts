import { Agent, FileStore, foldEvents, MemoryStore, Team, type TeamEvent } from 'agent-teams';
import { type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { tool as aiTool } from 'ai';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { toldDone } from '../examples/fixtures/newsdesk-script.js';
import { chaosStore } from '../helpers/chaos-store.js';
import { STORES } from '../helpers/stores.js';
import { createTask, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

// The lead forms its team as it runs: it spawns members from the team's catalog (or of its
// own instructions on an allowed model), gives them work, and retires them, within maxMembers.

afterEach(() => {
  vi.unstubAllEnvs();
});

const outputOf = (call: ScriptedCall | undefined, index = 0) => call?.toolResults[index]?.output as never;

/** A newsroom whose editor may start a researcher, a writer and a reviewer, four members at most. */
function newsroom(store: Team['store'], script: (call: ScriptedCall) => unknown) {
  const model = scriptedModel((call) => script(call) as never);
  const agent = (
    name: string,
    instructions: string,
    more: Partial<ConstructorParameters<typeof Agent>[0]> = {},
  ) => new Agent({ name, model, instructions, ...more });
  const thesaurus = aiTool({
    description: 'Finds a shorter word',
    inputSchema: z.object({ word: z.string() }),
    execute: async ({ word }) => word.slice(0, 4),
  });
  const team = new Team({
    name: 'newsroom',
    lead: agent('lead', 'You edit.'),
    members: [agent('a', 'You check.'), agent('b', 'You check too.')],
    catalog: {
      researcher: agent('any', 'You find facts and cite them.', { description: 'Finds facts' }),
      writer: agent('any', 'You write plain prose.', { description: 'Writes', tools: { thesaurus } }),
      reviewer: agent('any', 'You review drafts.', { description: 'Reviews' }),
    },
    maxMembers: 4,
    maxTurnsPerMember: 3,
    store,
  });
  const events: TeamEvent[] = [];
  team.on('*', (event) => events.push(event));
  const of = <K extends TeamEvent['type']>(type: K) =>
    events.filter((event) => event.type === type) as unknown as TeamEvent<K>[];
  return { team, model, of };
}

describe.each(STORES)('a lead that forms its team, on the %s', (_, makeStore) => {
  test('it spawns two members from its catalog, gives them tasks and retires one; a third is over maxMembers; roster, usage and log agree', async () => {
    const { team, model, of } = newsroom(makeStore(), (call) => {
      if (call.agent === 'lead') {
        if (call.reason === 'start' && call.step === 0) {
          return {
            toolCalls: [
              tool('spawn_member', { name: 'scout', definition: 'researcher' }),
              tool('spawn_member', {
                name: 'scribe',
                definition: 'writer',
                instructions: 'Write in short sentences.',
              }),
              tool('spawn_member', { name: 'critic', definition: 'reviewer' }),
              // In the same step, after the spawns: the tools apply calls in the order written.
              createTask({ title: 'Find facts', assignee: 'scout' }),
              createTask({ title: 'Draft', assignee: 'scribe', dependsOn: ['task-1'] }),
            ],
          };
        }
        // The scout's word wakes the lead, or reaches its first turn if that still runs.
        if (toldDone(call))
          return { toolCalls: [tool('team_status'), tool('retire_member', { name: 'scout' })] };
        return call.reason === 'synthesis' ? 'The article.' : 'Planned.';
      }
      if (call.agent === 'scout' && call.reason === 'task' && call.step === 0) {
        return {
          toolCalls: [
            tool('update_task', { taskId: 'task-1', status: 'completed', result: 'The moon pulls the sea.' }),
            tool('send_message', { to: 'lead', content: 'The facts are in task-1; I am done.' }),
          ],
        };
      }
      if (call.agent === 'scribe') return 'A draft in short sentences.';
      return 'Done.';
    });
    const result = await team.run({ input: 'Write about tides' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.output).toBe('The article.');

    // Two joined, each as its definition says, started by the lead; the third was refused.
    expect(of('team:member-joined').map((event) => event.data)).toEqual([
      {
        member: 'scout',
        description: 'Finds facts',
        model: 'scripted/scripted',
        mode: 'default',
        instructions: 'You find facts and cite them.',
        definition: 'researcher',
        by: 'lead',
      },
      {
        member: 'scribe',
        description: 'Writes',
        model: 'scripted/scripted',
        mode: 'default',
        instructions: 'You write plain prose.\n\nFrom lead, as you join: Write in short sentences.',
        definition: 'writer',
        by: 'lead',
      },
    ]);
    const planning = model.calls.find((call) => call.agent === 'lead' && call.step === 1);
    expect(planning?.toolResults.map((each) => (each.output as { success: boolean }).success)).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
    expect(outputOf(planning, 2)).toEqual({
      success: false,
      error:
        'The team newsroom has 4 members, its most at once (maxMembers 4): retire one before critic can join.',
    });
    expect(outputOf(planning, 0)).toEqual({
      success: true,
      member: 'scout',
      definition: 'researcher',
      model: 'scripted/scripted',
    });

    // A spawned member has the team's context like any member, and its definition's tools.
    const scout = model.calls.find((call) => call.agent === 'scout');
    expect(scout?.system).toContain('You find facts and cite them.');
    expect(scout?.system).toContain('You are scout, a member of the team "newsroom", led by lead');
    expect(scout?.prompt).toContain('Your task task-1: Find facts');
    const scribe = model.calls.find((call) => call.agent === 'scribe');
    expect(scribe?.prompt).toContain('The moon pulls the sea.');
    expect(scribe?.tools).toContain('thesaurus');
    expect(scout?.tools).not.toContain('thesaurus');
    // The lead read what it may spawn.
    expect(model.calls[0]?.system).toContain('at most 4 members at once');
    expect(model.calls[0]?.system).toContain('- writer: Writes');

    // team_status, as the lead asked it when the scout's word reached it.
    const status = outputOf(
      model.calls.find((call) => call.agent === 'lead' && call.toolResults[0]?.toolName === 'team_status'),
    ) as {
      members: { name: string; turns: unknown; definition?: string; tokens: number }[];
      active: number;
      maxMembers: number;
    };
    expect(status).toMatchObject({ success: true, active: 4, maxMembers: 4 });
    expect(status.members.map((member) => member.name)).toEqual(['a', 'b', 'scout', 'scribe']);
    expect(status.members[0]).toMatchObject({
      status: 'idle',
      task: null,
      turns: { used: 0, left: 3 },
      tokens: 0,
    });
    expect(status.members[2]).toMatchObject({ definition: 'researcher', turns: { used: 1, left: 2 } });

    // Retired: asked by the lead, gracefully; it shut down after its next turn.
    expect(of('team:shutdown-requested').map((event) => event.data)).toEqual([
      { member: 'scout', force: false, reason: null, messageId: expect.any(String), by: 'lead' },
    ]);
    expect(of('team:member-shutdown').map((event) => event.data)).toEqual([
      { member: 'scout', force: false, reason: null, removed: false, requeued: [], archived: [] },
    ]);
    expect(result.teamResult.tasks.map((task) => `${task.id}:${task.owner}:${task.status}`)).toEqual([
      'task-1:scout:completed',
      'task-2:scribe:completed',
    ]);

    // The roster, the result, the usage and the log's fold agree.
    const roster = await team.store.transact('newsroom', ({ roster }) => roster.entries());
    expect(roster.map((entry) => `${entry.name}:${entry.status}`)).toEqual([
      'lead:active',
      'a:active',
      'b:active',
      'scout:shutdown',
      'scribe:active',
    ]);
    const statuses = Object.fromEntries(
      result.teamResult.members.map((member) => [member.name, member.status]),
    );
    expect(statuses).toEqual({ lead: 'idle', a: 'idle', b: 'idle', scout: 'shutdown', scribe: 'idle' });
    const folded = foldEvents(await team.store.readEvents(result.runId));
    expect(
      Object.fromEntries([...folded.agents.values()].map((agent) => [agent.name, agent.status])),
    ).toEqual(statuses);
    for (const name of ['scout', 'scribe']) {
      expect(result.usage.byAgent[name]?.totalTokens).toBeGreaterThan(0);
      expect(result.usage.byAgent[name]).toEqual(folded.agents.get(name)?.usage);
    }
    const summed = Object.values(result.usage.byAgent).reduce((sum, usage) => sum + usage.totalTokens, 0);
    expect(summed).toBe(result.usage.total.totalTokens);
  });

  test('free instructions on an allowed model; an unknown definition, a model not allowed, a name taken or a missing key are the tool’s errors and change nothing', async () => {
    vi.stubEnv('OPENAI_COMPATIBLE_BASE_URL', '');
    const fast = scriptedModel(() => 'Checked by the fact checker.', { modelId: 'fast' });
    const model = scriptedModel((call) => {
      if (call.agent !== 'lead') return 'ok';
      if (call.reason === 'start' && call.step === 0) {
        return {
          toolCalls: [
            tool('spawn_member', { name: 'x', definition: 'poet' }),
            tool('spawn_member', { name: 'x', instructions: 'You check.', model: 'openai/gpt-5.5' }),
            tool('spawn_member', { name: 'a', instructions: 'You check.' }),
            tool('spawn_member', { name: 'x' }),
            tool('spawn_member', { name: 'x', instructions: 'You check.', model: 'openai-compatible/qwen3' }),
            tool('spawn_member', { name: 'checker', instructions: 'You check facts, briefly.' }),
            createTask({ title: 'Check', assignee: 'checker' }),
          ],
        };
      }
      return call.reason === 'synthesis' ? 'Checked.' : 'Planned.';
    });
    const team = new Team({
      name: 't',
      lead: new Agent({ name: 'lead', model, instructions: 'You plan.' }),
      members: [new Agent({ name: 'a', model, instructions: 'You work.' })],
      catalog: { reviewer: new Agent({ name: 'r', model, instructions: 'You review.' }) },
      spawnModels: [fast, 'openai-compatible/qwen3'],
      store: makeStore(),
    });
    const joined: unknown[] = [];
    team.on('team:member-joined', (event) => joined.push(event.data));
    const result = await team.run({ input: 'go' });
    const answers = model.calls.find((call) => call.agent === 'lead' && call.step === 1)?.toolResults;
    expect(answers?.map((answer) => answer.output)).toEqual([
      {
        success: false,
        error: 'The team has no definition "poet": its definitions are reviewer.',
      },
      {
        success: false,
        error:
          'The model "openai/gpt-5.5" is not one this team allows for a new member; it allows scripted/fast, openai-compatible/qwen3.',
      },
      { success: false, error: 'The team t has (or had) an agent a already.' },
      {
        success: false,
        error:
          'Give the new member instructions (what it does), or a definition: its definitions are reviewer.',
      },
      {
        success: false,
        error:
          'The model openai-compatible/qwen3 needs OPENAI_COMPATIBLE_BASE_URL: set it in the environment.',
      },
      { success: true, member: 'checker', model: 'scripted/fast' },
      expect.objectContaining({ success: true }),
    ]);
    // Only the last spawn joined: on the first allowed model, described by its instructions.
    expect(joined).toEqual([
      {
        member: 'checker',
        description: 'You check facts, briefly.',
        model: 'scripted/fast',
        mode: 'default',
        instructions: 'You check facts, briefly.',
        by: 'lead',
      },
    ]);
    expect(fast.calls.map((call) => call.agent)).toEqual(['checker']);
    expect(result.teamResult.tasks[0]).toMatchObject({
      owner: 'checker',
      result: 'Checked by the fact checker.',
    });
    const roster = await team.store.transact('t', ({ roster }) => roster.entries());
    expect(roster.map((entry) => entry.name)).toEqual(['lead', 'a', 'checker']);
  });
});

test('a member spawned from the catalog is brought back by a resume and runs as its definition says', async () => {
  const root = tempFolder('agent-teams-formation-');
  const make = (firstProcess: boolean) => {
    const model = scriptedModel(
      (call) => {
        if (call.agent !== 'lead') return 'Facts found.';
        if (call.reason === 'start' && call.step === 0) {
          return {
            toolCalls: [
              tool('spawn_member', { name: 'scout', definition: 'researcher' }),
              createTask({ title: 'Find facts', assignee: 'scout' }),
            ],
          };
        }
        return call.reason === 'synthesis' ? 'Done.' : 'Planned.';
      },
      // In the first process the scout never answers: the run is stopped with its task in hand.
      { latencyMs: (call) => (firstProcess && call.agent === 'scout' ? 600_000 : 0) },
    );
    const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.` });
    return new Team({
      name: 't',
      lead: agent('lead'),
      members: [agent('a')],
      catalog: { researcher: agent('researcher') },
      store: new FileStore({ root }),
    });
  };
  const run = await make(true).start({ input: 'go' });
  for await (const event of run.events()) if (event.type === 'team:task-claimed') break;
  run.abort('stop for now');
  await run.result;

  const second = make(false);
  const result = await second.run({ input: 'go', fresh: false });
  expect(result.teamResult.tasks[0]).toMatchObject({
    owner: 'scout',
    status: 'completed',
    result: 'Facts found.',
  });
  const log = await second.store.readEvents(result.runId);
  expect(log.filter((event) => event.type === 'team:member-shutdown')).toEqual([]);
  const roster = await second.store.transact('t', ({ roster }) => roster.entries());
  expect(roster.map((entry) => `${entry.name}:${entry.status}`)).toEqual([
    'lead:active',
    'a:active',
    'scout:active',
  ]);
});

test('instructions over the limit, or a system prompt over half the prompt budget, are the tool’s error; run.addMember is bounded by maxMembers too', async () => {
  let release!: () => void;
  const added = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model = scriptedModel(async (call) => {
    if (call.agent !== 'lead' || call.reason !== 'start') return 'ok';
    if (call.step > 0) return 'Planned.';
    await added; // the lead plans once the test has added its members
    return {
      toolCalls: [
        tool('spawn_member', { name: 'long', instructions: 'x'.repeat(20_001) }),
        tool('spawn_member', { name: 'wordy', instructions: 'Check every claim twice. '.repeat(200) }),
      ],
    };
  });
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model, instructions: 'You plan.' }),
    members: [new Agent({ name: 'a', model, instructions: 'You work.' })],
    spawnModels: [model],
    maxMembers: 2,
    promptBudgetTokens: 2_000,
  });
  const run = await team.start({ input: 'go' });
  await run.addMember(new Agent({ name: 'b', model, instructions: 'You help.' }));
  const third = new Agent({ name: 'c', model, instructions: 'You help too.' });
  await expect(run.addMember(third)).rejects.toMatchObject({
    code: 'member-limit',
    message: 'The team t has 2 members, its most at once (maxMembers 2): retire one before c can join.',
  });
  release();
  await run.result;
  const answers = model.calls.find((call) => call.agent === 'lead' && call.step === 1)?.toolResults;
  expect(answers?.map((answer) => answer.output)).toEqual([
    { success: false, error: 'instructions hold at most 20000 characters, not 20001.' },
    {
      success: false,
      error: expect.stringMatching(
        /^The system prompt of wordy \(its instructions and the team's\) takes \d+ o200k tokens, more than half of promptBudgetTokens \(2000\)/,
      ),
    },
  ]);
  const roster = await team.store.transact('t', ({ roster }) => roster.entries());
  expect(roster.map((entry) => entry.name)).toEqual(['lead', 'a', 'b']);
});

test.each(Array.from({ length: 12 }, (_, seed) => seed))(
  'a spawn and a task for the new member in one step are applied in the order written, whatever the store’s timing (seed %i)',
  async (seed) => {
    const model = scriptedModel((call) => {
      if (call.agent !== 'lead') return 'Done by the helper.';
      if (call.reason === 'start' && call.step === 0) {
        return {
          toolCalls: [
            tool('spawn_member', { name: 'helper', definition: 'helper' }),
            createTask({ title: 'Help', assignee: 'helper' }),
          ],
        };
      }
      return call.reason === 'synthesis' ? 'Helped.' : 'Planned.';
    });
    const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.` });
    const team = new Team({
      name: 't',
      lead: agent('lead'),
      members: [agent('a')],
      catalog: { helper: agent('helper') },
      store: chaosStore(new MemoryStore(), seed),
    });
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.tasks.map((task) => `${task.owner}:${task.status}`)).toEqual([
      'helper:completed',
    ]);
  },
);

test('a spawn on a model without a price, when a budget in USD would count its cost (the run’s or its own), is the tool’s error; without such a budget it joins', async () => {
  const script = (call: ScriptedCall) => {
    if (call.agent !== 'lead') return 'ok';
    if (call.reason === 'start' && call.step === 0) {
      return {
        toolCalls: [
          tool('spawn_member', { name: 'helper', definition: 'helper' }),
          tool('spawn_member', { name: 'capped', definition: 'capped' }),
          tool('spawn_member', { name: 'paid', instructions: 'You help, on a priced model.' }),
        ],
      };
    }
    return call.reason === 'synthesis' ? 'Done.' : 'Planned.';
  };
  const priced = scriptedModel(script);
  const free = scriptedModel(script, { modelId: 'unpriced-model' });
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model: priced, instructions: 'You plan.' }),
    members: [new Agent({ name: 'a', model: priced, instructions: 'You work.' })],
    catalog: {
      helper: new Agent({ name: 'any', model: free, instructions: 'You help.' }),
      capped: new Agent({ name: 'any', model: free, instructions: 'You help.', budget: { maxCostUsd: 1 } }),
    },
    spawnModels: [priced],
    pricing: { scripted: { input: 1, output: 1 } },
  });
  const answers = () =>
    priced.calls
      .filter((call) => call.agent === 'lead' && call.step === 1)
      .at(-1)
      ?.toolResults.map((answer) => answer.output);
  const joined = () =>
    team.store.transact('t', ({ roster }) =>
      roster.entries().map((entry) => `${entry.name}:${entry.status}`),
    );
  const refusal = (name: string) => ({
    success: false,
    error: `A budget in USD counts ${name}'s cost, and it could not be counted: no price for model unpriced-model (give one in the team's pricing option). Spawn it on a priced model.`,
  });

  // The run's budget in USD counts every member's cost: the unpriced one cannot join.
  await team.run({ input: 'go', budget: { maxCostUsd: 5 } });
  expect(answers()).toEqual([
    refusal('helper'),
    refusal('capped'),
    { success: true, member: 'paid', model: 'scripted/scripted' },
  ]);
  expect((await joined()).map((entry) => entry.split(':')[0])).toEqual(['lead', 'a', 'paid']);

  // Without one, only the member with a budget of its own in USD is refused.
  await team.run({ input: 'go again' });
  expect(answers()).toEqual([
    { success: true, member: 'helper', definition: 'helper', model: 'scripted/unpriced-model' },
    refusal('capped'),
    { success: true, member: 'paid', model: 'scripted/scripted' },
  ]);
});

test('a fixed member and a spawned member read the team’s goal in their briefings; a long request is cut to its share, with a marker', async () => {
  const model = scriptedModel((call) => {
    if (call.agent !== 'lead') return 'Done.';
    if (call.reason === 'start' && call.step === 0) {
      return {
        toolCalls: [
          tool('spawn_member', { name: 'scout', definition: 'researcher' }),
          createTask({ title: 'Find facts', assignee: 'scout' }),
          createTask({ title: 'Check facts', assignee: 'a' }),
        ],
      };
    }
    return call.reason === 'synthesis' ? 'The article.' : 'Planned.';
  });
  const team = new Team({
    name: 't',
    lead: new Agent({ name: 'lead', model, instructions: 'You plan.' }),
    members: [new Agent({ name: 'a', model, instructions: 'You check.' })],
    catalog: { researcher: new Agent({ name: 'any', model, instructions: 'You find facts.' }) },
  });
  const briefings = () =>
    ['a', 'scout'].map((agent) => model.calls.findLast((call) => call.agent === agent)?.prompt ?? '');

  await team.run({ input: 'Write about tides for children.' });
  for (const prompt of briefings()) {
    expect(prompt).toContain("The team's goal (the request to the lead):\nWrite about tides for children.");
    expect(prompt).not.toContain('[cut:');
  }

  // A request of about 9,000 tokens: each member reads its start, at most 1,000 tokens of it.
  const long = `Write about tides. ${'The sea rises and falls twice a day. '.repeat(1_000)}`;
  await team.run({ input: long });
  for (const prompt of briefings()) {
    expect(prompt).toContain("The team's goal (the request to the lead):\nWrite about tides. The sea rises");
    expect(prompt).toMatch(/\[cut: \d+ more characters; the lead has the whole request\]/);
    expect(prompt.length).toBeLessThan(6_000);
  }
  // The lead's own briefing has the request whole, as before.
  expect(model.calls.findLast((call) => call.agent === 'lead' && call.reason === 'start')?.prompt).toContain(
    long.trim(),
  );
});
