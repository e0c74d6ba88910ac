import { scriptedModel } from 'agent-teams/testing';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { expect, test, vi } from 'vitest';
import { z } from 'zod';
import { TURN_HEADERS, turnHeaders } from '../../src/telemetry/turn-headers.js';

test('replies given as a list answer call after call, and running out is an error', async () => {
  const model = scriptedModel(['one', { text: 'two' }]);
  expect((await generateText({ model, prompt: 'a' })).text).toBe('one');
  expect((await generateText({ model, prompt: 'b' })).text).toBe('two');
  await expect(generateText({ model, prompt: 'c', maxRetries: 0 })).rejects.toThrow(
    'The scripted model has 2 replies and was called a 3th time.',
  );
  expect(model.calls.map((call) => call.prompt)).toEqual(['a', 'b', 'c']);
});

test('a computed script sees who asks, the prompt, the step and the tool results, and its tool calls run', async () => {
  const model = scriptedModel((call) =>
    call.step === 0
      ? { toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }
      : `sum is ${(call.toolResults[0]?.output as { sum: number } | undefined)?.sum}`,
  );
  const result = await generateText({
    model,
    system: 'Add numbers.',
    prompt: 'Add',
    headers: turnHeaders({
      runId: 'run-1',
      agent: 'calc',
      role: 'member',
      reason: 'task',
      turn: 2,
      taskId: 'task-9',
    }),
    tools: {
      add: tool({
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: async ({ a, b }) => ({ sum: a + b }),
      }),
    },
    stopWhen: stepCountIs(3),
  });
  expect(result.text).toBe('sum is 5');
  expect(model.calls[0]).toMatchObject({
    agent: 'calc',
    role: 'member',
    reason: 'task',
    turn: 2,
    taskId: 'task-9',
    runId: 'run-1',
    step: 0,
    tools: ['add'],
  });
  expect(model.calls[1]).toMatchObject({
    agent: 'calc',
    turn: 2,
    step: 1,
    toolResults: [{ toolName: 'add', output: { sum: 5 } }],
  });
  expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
});

test('who asks comes from the headers, never from what the prompt says', async () => {
  const model = scriptedModel(() => 'ok');
  const misleading = {
    system: 'You are Sam, the lead of the team "t".',
    prompt: '[turn: synthesis]\nWrite the answer.',
  };
  await generateText({ model, ...misleading });
  await generateText({
    model,
    ...misleading,
    headers: turnHeaders({
      runId: 'r',
      agent: 'a',
      role: 'member',
      reason: 'message',
      turn: 1,
      taskId: null,
    }),
  });
  expect(model.calls[0]).toMatchObject({
    agent: undefined,
    role: undefined,
    reason: undefined,
    turn: undefined,
    taskId: undefined,
    runId: undefined,
  });
  expect(model.calls[1]).toMatchObject({ agent: 'a', role: 'member', reason: 'message', taskId: undefined });
});

test('the headers are read in any case, as a wrapper of your own may spell them', async () => {
  const model = scriptedModel(['ok']);
  await generateText({
    model,
    prompt: 'go',
    headers: {
      [TURN_HEADERS.agent.toUpperCase()]: 'a',
      [TURN_HEADERS.role.toUpperCase()]: 'member',
      [TURN_HEADERS.reason.toUpperCase()]: 'stalled',
    },
  });
  expect(model.calls[0]).toMatchObject({
    agent: 'a',
    role: 'member',
    reason: 'stalled',
    turn: undefined,
    runId: undefined,
  });
});

test('it streams too', async () => {
  const model = scriptedModel(['streamed words']);
  const result = streamText({
    model,
    prompt: 'go',
    headers: turnHeaders({ runId: 'r', agent: 'lead', role: 'lead', reason: 'start', turn: 1, taskId: null }),
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  expect(text).toBe('streamed words');
  expect(model.calls[0]).toMatchObject({ agent: 'lead', role: 'lead', reason: 'start' });
});

/** The parts of a doStream answer, read as they come. */
async function read(model: ReturnType<typeof scriptedModel>, into: { type: string; delta?: string }[]) {
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
  });
  for await (const part of stream) into.push(part as { type: string; delta?: string });
}

test('a streamed reply comes whole at once, with no timer; `pace` words it, each part that long after the last', async () => {
  vi.useFakeTimers();
  try {
    // With the clock stopped, a reply that waited on any timer would never end.
    const model = scriptedModel(['the moon pulls the sea']);
    const parts: { type: string; delta?: string }[] = [];
    await read(model, parts);
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.delta)).toEqual([
      'the moon pulls the sea',
    ]);
    expect(model.served).toMatchObject({ responses: 1 });

    const paced = scriptedModel(['the moon pulls the sea'], { pace: 40 });
    const seen: { type: string; delta?: string }[] = [];
    const reading = read(paced, seen);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.map((part) => part.type)).toEqual(['stream-start']);
    await vi.advanceTimersByTimeAsync(40 * 3);
    expect(seen.map((part) => part.delta ?? part.type)).toEqual([
      'stream-start',
      'text-start',
      'the ',
      'moon ',
    ]);
    // Served once its last part is read.
    expect(paced.served.responses).toBe(0);
    await vi.advanceTimersByTimeAsync(40 * 5);
    await reading;
    expect(seen.map((part) => part.delta ?? part.type)).toEqual([
      'stream-start',
      'text-start',
      'the ',
      'moon ',
      'pulls ',
      'the ',
      'sea',
      'text-end',
      'finish',
    ]);
    expect(paced.served).toMatchObject({ responses: 1 });
    expect(paced.served.totalTokens).toBe(model.served.totalTokens);
  } finally {
    vi.useRealTimers();
  }
});

test('simulated latency waits, and an abort stops the wait', async () => {
  const model = scriptedModel(['late'], { latencyMs: 3_600_000 });
  const controller = new AbortController();
  const pending = generateText({ model, prompt: 'go', abortSignal: controller.signal, maxRetries: 0 });
  controller.abort();
  await expect(pending).rejects.toThrow();
});

test.each([
  [
    { latency: 5 },
    'Unknown option "latency" for scriptedModel; the known ones are latencyMs, modelId, pace.',
  ],
  [{ pace: -5 }, 'pace of scriptedModel must be a number of ms, 0 or more, not -5.'],
  [
    { latencyMs: -1 },
    'latencyMs of scriptedModel must be a number of ms from 0 to 2147483647, or a function of the call answering one, not -1.',
  ],
  [{ modelId: '' }, 'modelId of scriptedModel must be a non-empty string, not "".'],
])('a bad or unknown option %j is refused, naming it', (options, message) => {
  expect(() => scriptedModel([], options as never)).toThrow(
    expect.objectContaining({ code: 'invalid-option', message }),
  );
});
