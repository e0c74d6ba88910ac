import { Agent, type AgentConfig, Team } from 'agent-teams';
import { type FakeOpenAIServer, type FaultScript, fakeOpenAIServer } from 'agent-teams/testing';
import { afterEach, expect, test } from 'vitest';
import { byAgent, createTask, tool } from '../helpers/team.js';

// A whole team through the model strings a user writes, `openai/<id>` (OpenAI's Responses
// API) and `anthropic/<id>` (Anthropic's Messages API), with the base URLs the providers
// read from the environment pointing at the fake server and dummy keys: the AI SDK's own
// providers build every request and parse every answer.

const PATHS = [
  {
    spec: 'openai/gpt-4.1',
    api: 'responses',
    env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: 'sk-fake' },
    base: 'OPENAI_BASE_URL',
    providerOptions: { openai: { user: 'team-test' } },
    maxTokensField: 'max_output_tokens',
    user: (body: Record<string, unknown>) => body.user,
  },
  {
    spec: 'anthropic/claude-sonnet-4-5',
    api: 'messages',
    env: { ANTHROPIC_BASE_URL: '', ANTHROPIC_API_KEY: 'ak-fake' },
    base: 'ANTHROPIC_BASE_URL',
    providerOptions: { anthropic: { metadata: { userId: 'team-test' } } },
    maxTokensField: 'max_tokens',
    user: (body: Record<string, unknown>) => (body.metadata as { user_id?: string } | undefined)?.user_id,
  },
] as const;

const resultOf = (output: unknown) => (output as { task?: { result?: string } }).task?.result;

// The editor plans two tasks, the second waiting for the first; the researcher completes
// its task with update_task; the writer reads the research with get_task and builds on it.
const script = byAgent({
  editor: (call) =>
    call.reason === 'start' && call.step === 0
      ? {
          toolCalls: [
            createTask({ title: 'Research tides', assignee: 'researcher' }),
            createTask({ title: 'Write it up', dependsOn: ['task-1'], assignee: 'writer' }),
          ],
        }
      : call.reason === 'synthesis'
        ? `Final, from: ${call.prompt.includes('Draft: The moon pulls the sea.') ? 'the draft' : 'nothing'}`
        : 'Planned.',
  researcher: (call) =>
    call.step === 0
      ? {
          text: 'Reporting.',
          toolCalls: [
            tool('update_task', {
              taskId: call.taskId,
              status: 'completed',
              result: 'The moon pulls the sea.',
            }),
          ],
        }
      : 'Reported.',
  writer: (call) =>
    call.step === 0
      ? { toolCalls: [tool('get_task', { taskId: 'task-1' })] }
      : call.step === 1
        ? {
            toolCalls: [
              tool('update_task', {
                taskId: call.taskId,
                status: 'completed',
                result: `Draft: ${resultOf(call.toolResults[0]?.output)}`,
              }),
            ],
          }
        : 'Written.',
});

const servers: FakeOpenAIServer[] = [];
const saved = new Map<string, string | undefined>();
afterEach(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function runThrough(
  path: (typeof PATHS)[number],
  options: { faults?: FaultScript; editor?: Partial<AgentConfig> } = {},
) {
  const server = await fakeOpenAIServer(script, { faults: options.faults });
  servers.push(server);
  for (const [name, value] of Object.entries({ ...path.env, [path.base]: server.url })) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    process.env[name] = value;
  }
  const agent = (name: string, extra: Partial<AgentConfig> = {}) =>
    new Agent({ name, model: path.spec, instructions: `You are the ${name}.`, ...extra });
  const team = new Team({
    name: `through-${path.api}`,
    lead: agent('editor', options.editor),
    members: [agent('researcher'), agent('writer')],
  });
  const result = await team.run({ input: 'Write about tides' });
  return { server, result };
}

test.each(PATHS)('a whole team runs through $spec ($api), tools used, final answer written', async (path) => {
  const { server, result } = await runThrough(path);
  expect(result.output).toBe('Final, from: the draft');
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.tasks.map((task) => [task.id, task.status, task.result])).toEqual([
    ['task-1', 'completed', 'The moon pulls the sea.'],
    ['task-2', 'completed', 'Draft: The moon pulls the sea.'],
  ]);
  expect(new Set(server.requests.map((request) => request.api))).toEqual(new Set([path.api]));
  expect(new Set(server.requests.map((request) => request.body.model))).toEqual(
    new Set([path.spec.split('/')[1]]),
  );
  // The tool results went back over the wire, named, and the steps were counted.
  const writerCalls = server.calls.filter((call) => call.agent === 'writer');
  expect(writerCalls.map((call) => call.step)).toEqual([0, 1, 2]);
  expect(writerCalls[1]?.toolResults).toMatchObject([{ toolName: 'get_task' }]);
  expect(resultOf(writerCalls[1]?.toolResults[0]?.output)).toBe('The moon pulls the sea.');
  expect(writerCalls[0]?.tools).toEqual(expect.arrayContaining(['get_task', 'update_task', 'send_message']));
  expect(new Set(server.calls.map((call) => call.runId))).toEqual(new Set([result.runId]));
  for (const name of ['editor', 'researcher', 'writer']) {
    expect(result.usage.byAgent[name]?.inputTokens).toBeGreaterThan(0);
    expect(result.usage.byAgent[name]?.outputTokens).toBeGreaterThan(0);
  }
});

test.each(PATHS)(
  'through $spec, a 429 on the researcher’s first call is retried and the run goes on',
  async (path) => {
    const { server, result } = await runThrough(path, {
      faults: (call, earlier) =>
        call.agent === 'researcher' && !earlier.some((before) => before.agent === 'researcher')
          ? { kind: 'status', status: 429, retryAfterSeconds: 0 }
          : undefined,
    });
    expect(server.faulted).toMatchObject([
      { call: { agent: 'researcher', step: 0 }, fault: { status: 429 } },
    ]);
    expect(result.output).toBe('Final, from: the draft');
    expect(result.teamResult.tasks.every((task) => task.status === 'completed')).toBe(true);
  },
);

test.each(PATHS)(
  'through $spec, a 500 on every call of the writer fails the run, naming the agent',
  async (path) => {
    await expect(
      runThrough(path, {
        faults: (call) =>
          call.agent === 'writer'
            ? { kind: 'status', status: 500, message: 'down', retryAfterSeconds: 0 }
            : undefined,
      }),
    ).rejects.toMatchObject({ code: 'agent-failed', message: expect.stringContaining('writer') });
  },
);

test.each(PATHS)(
  'through $spec, the lead’s model settings reach its requests, and only its',
  async (path) => {
    const { server } = await runThrough(path, {
      editor: { temperature: 0.3, maxOutputTokens: 400, providerOptions: path.providerOptions },
    });
    const requests = server.requests.map((request, index) => ({
      agent: server.calls[index]?.agent,
      body: request.body,
    }));
    const lead = requests.filter((request) => request.agent === 'editor');
    const members = requests.filter((request) => request.agent !== 'editor');
    expect(lead.length).toBeGreaterThan(0);
    expect(members.length).toBeGreaterThan(0);
    for (const { body } of lead) {
      expect(body.temperature).toBe(0.3);
      expect(body[path.maxTokensField]).toBe(400);
      expect(path.user(body)).toBe('team-test');
    }
    for (const { body } of members) {
      expect(body.temperature).toBeUndefined();
      expect(path.user(body)).toBeUndefined();
    }
  },
);
