import { Agent, MemoryStore, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';

const model = scriptedModel([]);
const lead = new Agent({ name: 'lead', model, instructions: 'Plan.' });
const members = [new Agent({ name: 'a', model, instructions: 'Work.' })];
const TEAM_OPTIONS =
  'name, lead, members, store, tasks, selfClaim, maxConcurrentMembers, maxLeadTurns, maxTurnsPerMember, ' +
  'maxTasks, synthesize, errorHandling, partialResults, pricing, turnTimeoutMs, budget, executor, telemetry, promptBudgetTokens, ' +
  'workspace, permissions, planApprovalTimeoutMs, permissionTimeoutMs, questionTimeoutMs, catalog, maxMembers, ' +
  'spawnModels, delegate, hooks, storeOutageMs, clock';

test.each(['resources', 'agentTools', 'distributed', 'maxTask'])(
  'an unknown team option (%s) is an error naming it and listing the known ones',
  (option) => {
    expect(() => new Team({ name: 't', lead, members, [option]: 1 } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: `Unknown option "${option}" for the team t; the known ones are ${TEAM_OPTIONS}.`,
      }),
    );
  },
);

test('errorHandling is checked inside too', () => {
  expect(
    () =>
      new Team({ name: 't', lead, members, errorHandling: { onAgentFailure: 'skip', retry: 3 } } as never),
  ).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "retry" for errorHandling of the team t; the known ones are onAgentFailure.',
      details: { option: 'errorHandling.retry', known: ['onAgentFailure'] },
    }),
  );
  expect(() => new Team({ name: 't', lead, members, errorHandling: 'skip' } as never)).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'errorHandling of the team t must be an object: { onAgentFailure? }, not "skip".',
    }),
  );
});

test('each task of the tasks option is checked when the team is made', () => {
  expect(
    () => new Team({ name: 't', lead, members, tasks: [{ title: 'T', depends_on: [] }] } as never),
  ).toThrow(
    'Unknown option "depends_on" for a new task; the known ones are title, description, dependsOn, assignee, id.',
  );
  expect(() => new Team({ name: 't', lead, members, tasks: [{ title: '' }] })).toThrow(
    expect.objectContaining({ code: 'invalid-input' }),
  );
});

test('a price must be { input, output } in USD', () => {
  const team = new Team({ name: 't', lead, members, pricing: { mine: { input: 1, output: 2 } } });
  expect(team.withModel(model)).toBeInstanceOf(Team);
  expect(
    () => new Team({ name: 't', lead, members, pricing: { mine: { in: 1, output: 2 } } } as never),
  ).toThrow('Unknown option "in" for pricing.mine of the team t; the known ones are input, output.');
  expect(() => new Team({ name: 't', lead, members, pricing: { mine: { input: -1, output: 2 } } })).toThrow(
    'pricing.mine.input of the team t must be a number of USD per million tokens, 0 or more, not -1.',
  );
});

test('a team made with every known option is accepted, and its copies too', () => {
  const team = new Team({
    name: 't',
    lead,
    members,
    tasks: [{ title: 'T' }],
    selfClaim: false,
    maxConcurrentMembers: 2,
    maxLeadTurns: 3,
    maxTurnsPerMember: 3,
    maxTasks: 10,
    synthesize: false,
    errorHandling: { onAgentFailure: 'skip' },
    partialResults: true,
    pricing: {},
    promptBudgetTokens: 8_000,
    storeOutageMs: 60_000,
  });
  expect(team.withModel(model).name).toBe('t');
});

test('run options are checked: an unknown one is named, and nothing starts', async () => {
  const store = new MemoryStore();
  const team = new Team({ name: 't', lead, members, store });
  await expect(team.run({ input: 'go', treadId: 'x' } as never)).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message:
        'Unknown option "treadId" for a run; the known ones are input, fresh, signal, threadId, budget.',
    }),
  );
  await expect(team.run({ input: 'go', fresh: 'no' } as never)).rejects.toThrow(
    'fresh of a run must be true or false, not "no".',
  );
  await expect(team.run({ input: '  ' })).rejects.toThrow(
    'input of a run must be a non-empty string, the request for the lead, not "  ".',
  );
  await expect(team.run({ input: 'go', budget: { maxTurns: 3 } } as never)).rejects.toThrow(
    'Unknown option "maxTurns" for budget of a run; the known ones are maxTokens, maxCostUsd, maxDurationMs.',
  );
  expect(await store.listTeams()).toEqual([]);
});

test("executor is 'in-process' or 'workers'; workers need a PostgresStore, said before anything starts", async () => {
  expect(() => new Team({ name: 't', lead, members, executor: 'pg-boss' as never })).toThrow(
    'executor of the team t must be one of "in-process", "workers", not "pg-boss".',
  );
  const store = new MemoryStore();
  const team = new Team({ name: 't', lead, members, store, executor: 'workers' });
  await expect(team.run({ input: 'go' })).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: "executor: 'workers' needs the team's store to be a PostgresStore.",
    }),
  );
  expect(await store.listTeams()).toEqual([]);
});

test('promptBudgetTokens is a whole number of at least 2,000', () => {
  for (const bad of [0, 1_999, 2_500.5, '24000', -1]) {
    expect(() => new Team({ name: 't', lead, members, promptBudgetTokens: bad } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: expect.stringMatching(
          /^promptBudgetTokens of the team t must be a whole number of at least 2000, not/,
        ),
      }),
    );
  }
  expect(new Team({ name: 't', lead, members, promptBudgetTokens: 2_000 }).name).toBe('t');
});

test('storeOutageMs is a whole number of ms from 1,000 to 86,400,000 (a day)', () => {
  for (const bad of [0, 999, 86_400_001, 1_500.5, '60000', Number.POSITIVE_INFINITY]) {
    expect(() => new Team({ name: 't', lead, members, storeOutageMs: bad } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: expect.stringMatching(
          /^storeOutageMs of the team t must be a whole number of ms from 1,000 to 86,400,000 \(a day\), not/,
        ),
      }),
    );
  }
  for (const good of [1_000, 300_000, 86_400_000])
    expect(new Team({ name: 't', lead, members, storeOutageMs: good }).name).toBe('t');
});

test('instructions that leave a briefing less than half of the budget are refused, naming the agent', () => {
  const wordy = new Agent({ name: 'wordy', model, instructions: 'Check every claim twice. '.repeat(300) });
  expect(() => new Team({ name: 't', lead, members: [wordy], promptBudgetTokens: 2_000 })).toThrow(
    expect.objectContaining({
      code: 'invalid-input',
      message: expect.stringMatching(
        /^The system prompt of wordy .* takes \d+ o200k tokens, more than half of promptBudgetTokens \(2000\)/,
      ),
    }),
  );
  // The default budget has room for them.
  expect(new Team({ name: 't', lead, members: [wordy] }).members).toHaveLength(1);
});

test('a run input that leaves the briefings less than half of the budget is refused, and nothing starts', async () => {
  const store = new MemoryStore();
  const team = new Team({ name: 't', lead, members, store, promptBudgetTokens: 2_000 });
  await expect(team.run({ input: 'Tell me about tides. '.repeat(300) })).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-input',
      message: expect.stringMatching(/^The input and the lead's system prompt take \d+ o200k tokens/),
    }),
  );
  expect(await store.listTeams()).toEqual([]);
});

test('the formation options are checked: catalog, maxMembers, spawnModels and delegate', () => {
  const team = (options: Record<string, unknown>) => () => new Team({ name: 't', lead, members, ...options });
  const helper = new Agent({ name: 'helper', model, instructions: 'Help.' });
  expect(team({ catalog: 'helper' })).toThrow(
    'catalog of the team t must be an object of Agents by definition name, not "helper".',
  );
  expect(team({ catalog: { helper: { name: 'helper' } } })).toThrow(
    'catalog.helper of the team t must be an Agent, not {"name":"helper"}.',
  );
  expect(team({ catalog: { 'no way': helper } })).toThrow(expect.objectContaining({ code: 'invalid-name' }));
  const unknown = new Agent({ name: 'x', model: 'nosuch/model', instructions: 'x' });
  expect(team({ catalog: { helper: unknown } })).toThrow(
    'catalog.helper.model of the team t must be a "provider/model" string of a known provider, or an AI SDK model, not "nosuch/model".',
  );
  for (const bad of [0, 1.5, '4']) {
    expect(team({ maxMembers: bad })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/^maxMembers of the team t must be a whole number of at least 1, not/),
      }),
    );
  }
  const two = [...members, new Agent({ name: 'b', model, instructions: 'Work.' })];
  expect(() => new Team({ name: 't', lead, members: two, maxMembers: 1 })).toThrow(
    'maxMembers of the team t must be at least 2, the number of its members, not 1.',
  );
  expect(team({ spawnModels: ['openai/gpt-5.5', 'nosuch/model'] })).toThrow(
    'spawnModels[1] of the team t must be a "provider/model" string of a known provider, or an AI SDK model, not "nosuch/model".',
  );
  expect(team({ spawnModels: ['openai/gpt-5.5', model, 'openai/gpt-5.5'] })).toThrow(
    'spawnModels[2] of the team t must be a model not listed already, not "openai/gpt-5.5".',
  );
  expect(team({ spawnModels: [42] })).toThrow(
    'spawnModels[0] of the team t must be an AI SDK language model or a "provider/model" string, not 42.',
  );
  expect(team({ delegate: 'yes' })).toThrow('delegate of the team t must be true or false, not "yes".');
  // A catalog entry whose instructions leave no room is refused like a member's.
  const wordy = new Agent({ name: 'wordy', model, instructions: 'Check every claim twice. '.repeat(300) });
  expect(team({ catalog: { wordy }, promptBudgetTokens: 2_000 })).toThrow(
    expect.objectContaining({
      code: 'invalid-input',
      message: expect.stringContaining('The system prompt of wordy'),
    }),
  );
  // No key is needed to name a model: it is resolved when a member is spawned on it.
  const made = new Team({
    name: 't',
    lead,
    members,
    catalog: { helper },
    spawnModels: ['anthropic/claude-haiku-4-5'],
    maxMembers: 3,
    delegate: true,
  });
  expect(made.withModel(model).name).toBe('t');
});

test('a store that is not a whole TeamStore is refused when the team is made, naming what it lacks', () => {
  const partial = { transact: () => undefined, readEvents: async () => [] };
  for (const store of [{}, partial, 'files', null]) {
    expect(() => new Team({ name: 't', lead, members, store } as never)).toThrow(
      expect.objectContaining({
        code: 'invalid-option',
        message: expect.stringMatching(
          /^store of the team t must be a TeamStore \(a MemoryStore, FileStore or PostgresStore, or an object with every method of one: createTeam, getTeam, listTeams, transact, startRun, resumeRun, leaveRun, listRuns, readEvents, subscribe, close\), not /,
        ),
      }),
    );
  }
});
