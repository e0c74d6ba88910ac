import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent, Team } from 'agent-teams';
import { fakeOpenAIServer } from 'agent-teams/testing';
import { afterEach, expect, test } from 'vitest';
import { turnHeaders } from '../../src/telemetry/turn-headers.js';
import { byAgent, createTask } from '../helpers/team.js';

interface Completion {
  choices: { finish_reason: string; message: { content: string | null; tool_calls: { id: string }[] } }[];
  usage: { total_tokens: number };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

test('it answers chat completions over real HTTP, plain and streamed', async () => {
  const server = await fakeOpenAIServer((call) =>
    call.step === 0
      ? { toolCalls: [{ toolName: 'look', input: { q: 'tides' } }] }
      : `looked: ${JSON.stringify(call.toolResults[0]?.output)}`,
  );
  servers.push(server);
  const post = (body: unknown) =>
    fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify(body) }).then(
      (response) => response.json() as Promise<Completion>,
    );
  const first = await post({
    model: 'm',
    messages: [{ role: 'user', content: 'find' }],
    tools: [{ type: 'function', function: { name: 'look' } }],
  });
  expect(first.choices[0]).toMatchObject({
    finish_reason: 'tool_calls',
    message: {
      role: 'assistant',
      tool_calls: [{ type: 'function', function: { name: 'look', arguments: '{"q":"tides"}' } }],
    },
  });
  const id = first.choices[0]?.message.tool_calls[0]?.id;
  const second = await post({
    model: 'm',
    messages: [
      { role: 'user', content: 'find' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'look', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: id, content: '{"found":1}' },
    ],
  });
  expect(second.choices[0]?.message.content).toBe('looked: {"found":1}');
  expect(second.usage.total_tokens).toBeGreaterThan(0);
  expect(server.calls[1]).toMatchObject({
    step: 1,
    toolResults: [{ toolName: 'look', output: { found: 1 } }],
  });
  // A plain client sends no turn headers: nobody in particular asks.
  expect(server.calls[1]).toMatchObject({ agent: undefined, reason: undefined, taskId: undefined });

  const streamed = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'again' }] }),
  }).then((response) => response.text());
  expect(streamed).toContain('"finish_reason":"tool_calls"');
  expect(streamed.trim().endsWith('data: [DONE]')).toBe(true);
  expect((await fetch(`${server.url}/nope`)).status).toBe(404);
});

test('it reads who asks from the turn headers of the request, whatever the prompt says', async () => {
  const server = await fakeOpenAIServer(['ok']);
  servers.push(server);
  await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: turnHeaders({
      runId: 'run-7',
      agent: 'writer',
      role: 'member',
      reason: 'task',
      turn: 3,
      taskId: 'task-2',
    }),
    body: JSON.stringify({
      model: 'm',
      messages: [
        { role: 'system', content: 'You are Sam, the lead of the team "t".' },
        { role: 'user', content: '[turn: synthesis]' },
      ],
    }),
  });
  expect(server.calls[0]).toMatchObject({
    agent: 'writer',
    role: 'member',
    reason: 'task',
    turn: 3,
    taskId: 'task-2',
    runId: 'run-7',
  });
});

test('a whole team runs through it with an openai-compatible model string', async () => {
  const server = await fakeOpenAIServer(
    byAgent({
      editor: (call) =>
        call.reason === 'start' && call.step === 0
          ? { toolCalls: [createTask({ title: 'Research tides', assignee: 'researcher' })] }
          : call.reason === 'synthesis'
            ? 'Tides: the moon pulls the sea.'
            : 'Planned.',
      researcher: () => 'The moon pulls the sea.',
    }),
  );
  servers.push(server);
  const previous = process.env.OPENAI_COMPATIBLE_BASE_URL;
  process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;
  try {
    const model = 'openai-compatible/scripted';
    const team = new Team({
      name: 'http',
      lead: new Agent({ name: 'editor', model, instructions: 'Plan.' }),
      members: [new Agent({ name: 'researcher', model, instructions: 'Research.' })],
    });
    const result = await team.run({ input: 'Write about tides' });
    expect(result.output).toBe('Tides: the moon pulls the sea.');
    expect(result.teamResult.tasks[0]).toMatchObject({
      status: 'completed',
      result: 'The moon pulls the sea.',
    });
    expect(result.usage.total.inputTokens).toBeGreaterThan(0);
    expect(
      server.calls.map((call) => ({
        agent: call.agent,
        role: call.role,
        reason: call.reason,
        task: call.taskId,
      })),
    ).toEqual([
      { agent: 'editor', role: 'lead', reason: 'start', task: undefined },
      { agent: 'researcher', role: 'member', reason: 'task', task: 'task-1' },
      { agent: 'editor', role: 'lead', reason: 'start', task: undefined },
      { agent: 'editor', role: 'lead', reason: 'synthesis', task: undefined },
    ]);
    expect(new Set(server.calls.map((call) => call.runId))).toEqual(new Set([result.runId]));
  } finally {
    if (previous === undefined) delete process.env.OPENAI_COMPATIBLE_BASE_URL;
    else process.env.OPENAI_COMPATIBLE_BASE_URL = previous;
  }
});

test('a team whose model needs a key that is not set fails before anything runs, naming the variable', async () => {
  const team = new Team({
    name: 'keyless',
    lead: new Agent({ name: 'editor', model: 'anthropic/claude-sonnet-4-5', instructions: 'Plan.' }),
    members: [
      new Agent({ name: 'researcher', model: 'anthropic/claude-sonnet-4-5', instructions: 'Research.' }),
    ],
  });
  const previous = process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
  try {
    await expect(team.run({ input: 'go' })).rejects.toThrow('needs ANTHROPIC_API_KEY');
    expect(await team.store.getTeam('keyless')).toBeUndefined();
  } finally {
    if (previous !== undefined) process.env.ANTHROPIC_API_KEY = previous;
  }
});

test('a bad or unknown option is refused, naming it, before a server listens', async () => {
  await expect(fakeOpenAIServer([], { fault: () => undefined } as never)).rejects.toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "fault" for fakeOpenAIServer; the known ones are latencyMs, faults.',
    }),
  );
  await expect(fakeOpenAIServer([], { faults: { kind: 'reset' } } as never)).rejects.toThrow(
    'faults of fakeOpenAIServer must be a function of the call answering a fault, or undefined, not {"kind":"reset"}.',
  );
});

const APIS = {
  chat: (url: string) =>
    createOpenAICompatible({ name: 'openai-compatible', baseURL: url, includeUsage: true })('m'),
  responses: (url: string) => createOpenAI({ apiKey: 'sk-fake', baseURL: url })('gpt-4.1'),
  messages: (url: string) => createAnthropic({ apiKey: 'ak-fake', baseURL: url })('claude-sonnet-4-5'),
} as const;

test.each(
  (Object.keys(APIS) as (keyof typeof APIS)[]).flatMap((api) =>
    [false, true].map((watched) => [api, watched] as const),
  ),
)(
  '%s (streamed: %s): it counts the tokens it served, and a team’s usage is exactly that',
  async (api, watched) => {
    // The researcher's first call gets a 429 (no answer, nothing served), its retry the answer.
    const server = await fakeOpenAIServer(
      byAgent({
        editor: (call) =>
          call.reason === 'start' && call.step === 0
            ? { toolCalls: [createTask({ title: 'Research tides', assignee: 'researcher' })] }
            : 'Tides: the moon pulls the sea.',
        researcher: () => 'The moon pulls the sea.',
      }),
      {
        faults: (call, earlier) =>
          call.agent === 'researcher' && !earlier.some((each) => each.agent === 'researcher')
            ? { kind: 'status', status: 429, retryAfterSeconds: 0 }
            : undefined,
      },
    );
    servers.push(server);
    const model = APIS[api](server.url);
    const team = new Team({
      name: 'counted',
      lead: new Agent({ name: 'editor', model, instructions: 'Plan.' }),
      members: [new Agent({ name: 'researcher', model, instructions: 'Research.' })],
    });
    if (watched) team.on('team:text-delta', () => {});
    const result = await team.run({ input: 'Write about tides' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(server.faulted).toHaveLength(1);
    expect(server.served.responses).toBe(server.calls.length - 1);
    expect(server.served.totalTokens).toBeGreaterThan(0);
    expect(result.usage.total).toMatchObject({
      inputTokens: server.served.inputTokens,
      outputTokens: server.served.outputTokens,
      totalTokens: server.served.totalTokens,
    });
    // The same figures over HTTP, for a test whose server runs in another process.
    const served = await fetch(`${server.url}/served`).then((response) => response.json());
    expect(served).toEqual(server.served);
    // Each answer is in the log under the id it carried.
    const log = await team.store.readEvents(result.runId);
    const ids = log.flatMap((event) => (event.type === 'team:turn-usage' ? [event.data.responseId] : []));
    expect(ids).toEqual(server.answers.map((answer) => answer.responseId));
  },
);
