import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { type FakeOpenAIServer, fakeOpenAIServer, type Script } from 'agent-teams/testing';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';
import { turnHeaders } from '../../src/telemetry/turn-headers.js';

// OpenAI's Responses API and Anthropic's Messages API on the fake server, read and parsed by
// the AI SDK's own providers: if they accept what the server sends, it speaks their API.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: Script, options: Parameters<typeof fakeOpenAIServer>[1] = {}) {
  const server = await fakeOpenAIServer(script, options);
  servers.push(server);
  return server;
}

const providers = {
  responses: (url: string) => createOpenAI({ apiKey: 'sk-fake', baseURL: url })('gpt-4.1'),
  messages: (url: string) => createAnthropic({ apiKey: 'ak-fake', baseURL: url })('claude-sonnet-4-5'),
} as const;

const look = tool({
  description: 'Looks something up',
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => ({ found: q.length }),
});

/** A tool loop through the SDK, plain or streamed: what a team's turn does. */
async function loop(api: keyof typeof providers, url: string, stream: boolean) {
  const options = {
    model: providers[api](url),
    system: 'You look things up.',
    prompt: 'Find tides',
    tools: { look },
    stopWhen: stepCountIs(4),
    maxRetries: 2,
  };
  if (!stream) {
    const { text, steps, totalUsage } = await generateText(options);
    return { text, steps: steps.map((step) => step.content), totalUsage };
  }
  const result = streamText(options);
  return {
    text: await result.text,
    steps: (await result.steps).map((step) => step.content),
    totalUsage: await result.totalUsage,
  };
}

const cases = (['responses', 'messages'] as const).flatMap((api) =>
  [false, true].map((stream) => [api, stream] as const),
);

test.each(cases)('%s: text and tool calls, in a tool loop (stream: %s)', async (api, stream) => {
  const server = await serve((call) =>
    call.step === 0
      ? {
          text: 'Let me look.',
          toolCalls: [
            { toolName: 'look', input: { q: 'tides' } },
            { toolName: 'look', input: { q: 'moon' } },
          ],
        }
      : `looked: ${JSON.stringify(call.toolResults.map((result) => result.output))}`,
  );
  const { text, steps, totalUsage } = await loop(api, server.url, stream);
  expect(text).toBe('looked: [{"found":5},{"found":4}]');
  expect(steps[0]).toMatchObject([
    { type: 'text', text: 'Let me look.' },
    { type: 'tool-call', toolName: 'look', input: { q: 'tides' } },
    { type: 'tool-call', toolName: 'look', input: { q: 'moon' } },
    { type: 'tool-result', toolName: 'look', output: { found: 5 } },
    { type: 'tool-result', toolName: 'look', output: { found: 4 } },
  ]);
  expect(totalUsage.inputTokens).toBeGreaterThan(0);
  expect(totalUsage.outputTokens).toBeGreaterThan(0);
  expect(server.requests.map((request) => [request.api, Boolean(request.body.stream)])).toEqual([
    [api, stream],
    [api, stream],
  ]);
  expect(server.calls).toMatchObject([
    {
      index: 0,
      step: 0,
      system: 'You look things up.',
      prompt: 'Find tides',
      tools: ['look'],
      toolResults: [],
    },
    {
      index: 1,
      step: 1,
      prompt: 'Find tides',
      toolResults: [
        { toolName: 'look', output: { found: 5 } },
        { toolName: 'look', output: { found: 4 } },
      ],
    },
  ]);
  // The Responses provider refers back to the server's stored message by id (store: true
  // by default) instead of sending its text again: the step still counts.
  if (api === 'responses') {
    expect(server.requests[1]?.body.input).toContainEqual({ type: 'item_reference', id: 'msg_0' });
  }
});

test.each(cases)('%s: who asks is read from the turn headers (stream: %s)', async (api, stream) => {
  const server = await serve(['ok']);
  const headers = turnHeaders({
    runId: 'run-3',
    agent: 'writer',
    role: 'member',
    reason: 'task',
    turn: 2,
    taskId: 'task-4',
  });
  const options = { model: providers[api](server.url), prompt: 'go', headers };
  expect(stream ? await streamText(options).text : (await generateText(options)).text).toBe('ok');
  expect(server.calls[0]).toMatchObject({
    agent: 'writer',
    role: 'member',
    reason: 'task',
    turn: 2,
    taskId: 'task-4',
    runId: 'run-3',
  });
});

test.each(cases)(
  '%s: a 429 with Retry-After is retried by the SDK, then answered (stream: %s)',
  async (api, stream) => {
    const server = await serve(['(the 429 counts as reply 1)', 'after the wait'], {
      faults: (call) =>
        call.index === 0 ? { kind: 'status', status: 429, retryAfterSeconds: 0 } : undefined,
    });
    const options = { model: providers[api](server.url), prompt: 'go', maxRetries: 1 };
    const text = stream ? await streamText(options).text : (await generateText(options)).text;
    // A list script counts the faulted call: the retry, call 2, gets reply 2.
    expect(text).toBe('after the wait');
    expect(server.faulted).toEqual([
      { call: server.calls[0], fault: { kind: 'status', status: 429, retryAfterSeconds: 0 } },
    ]);
    expect(server.calls).toHaveLength(2);
  },
);

test('each API gets its own error body, with the status and the message', async () => {
  const server = await serve(['never'], {
    faults: () => ({ kind: 'status', status: 529, message: 'Overloaded' }),
  });
  const post = (path: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', input: 'x', messages: [] }),
    });
  const anthropic = await post('/messages');
  expect(anthropic.status).toBe(529);
  expect(await anthropic.json()).toEqual({
    type: 'error',
    error: { type: 'overloaded_error', message: 'Overloaded' },
  });
  const openai = await post('/responses');
  expect(openai.status).toBe(529);
  expect(await openai.json()).toMatchObject({ error: { message: 'Overloaded', type: 'server_error' } });
  // Through the SDK, the message is the provider's error's.
  const options = { prompt: 'go', maxRetries: 0 };
  await expect(generateText({ ...options, model: providers.messages(server.url) })).rejects.toThrow(
    'Overloaded',
  );
  await expect(generateText({ ...options, model: providers.responses(server.url) })).rejects.toThrow(
    'Overloaded',
  );
});

test.each(cases)(
  '%s: arguments that do not parse become a tool error, the loop goes on (stream: %s)',
  async (api, stream) => {
    const server = await serve(() => 'done', {
      faults: (call) => (call.step === 0 ? { kind: 'invalid-tool-arguments', toolName: 'look' } : undefined),
    });
    const { text, steps } = await loop(api, server.url, stream);
    expect(text).toBe('done');
    expect(steps[0]).toMatchObject([
      { type: 'tool-call', toolName: 'look', invalid: true },
      { type: 'tool-error', toolName: 'look' },
    ]);
    // The model is told, as a tool result, so it can try again.
    expect(server.calls[1]?.toolResults).toMatchObject([{ toolName: 'look' }]);
  },
);

test.each(cases)(
  '%s: malformed JSON fails the call, an unknown tool is a tool error (stream: %s)',
  async (api, stream) => {
    const broken = await serve(['never'], { faults: () => ({ kind: 'malformed-json' }) });
    const options = { model: providers[api](broken.url), prompt: 'go', maxRetries: 0 };
    if (stream) {
      // Streamed, the SDK reports it as an error in the stream (or throws, as the provider has it).
      const errors: unknown[] = [];
      try {
        for await (const part of streamText({ ...options, onError: () => {} }).fullStream)
          if (part.type === 'error') errors.push(part.error);
      } catch (error) {
        errors.push(error);
      }
      expect(errors.length).toBeGreaterThan(0);
    } else await expect(generateText(options)).rejects.toThrow();

    const server = await serve(() => 'done', {
      faults: (call) => (call.step === 0 ? { kind: 'unknown-tool' } : undefined),
    });
    const { text, steps } = await loop(api, server.url, stream);
    expect(text).toBe('done');
    expect(steps[0]).toMatchObject([
      { type: 'tool-call', toolName: 'no_such_tool', invalid: true },
      { type: 'tool-error', toolName: 'no_such_tool' },
    ]);
  },
);

test.each(cases)('%s: an empty answer is an empty reply (stream: %s)', async (api, stream) => {
  const server = await serve(['never'], { faults: () => ({ kind: 'empty' }) });
  const options = { model: providers[api](server.url), prompt: 'go' };
  const result = stream ? streamText(options) : await generateText(options);
  expect(await result.text).toBe('');
  expect(await result.finishReason).toBe('stop');
});
