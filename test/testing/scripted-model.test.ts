import { scriptedModel } from 'agent-teams/testing';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';

test('replies given as a list answer call after call, and running out is an error', async () => {
  const model = scriptedModel(['one', { text: 'two' }]);
  expect((await generateText({ model, prompt: 'a' })).text).toBe('one');
  expect((await generateText({ model, prompt: 'b' })).text).toBe('two');
  await expect(generateText({ model, prompt: 'c', maxRetries: 0 })).rejects.toThrow(
    'The scripted model has 2 replies and was called a 3th time.',
  );
  expect(model.calls.map((call) => call.prompt)).toEqual(['a', 'b', 'c']);
});

test('a computed script sees the prompt, the step and the tool results, and its tool calls run', async () => {
  const model = scriptedModel((call) =>
    call.step === 0
      ? { toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }
      : `sum is ${(call.toolResults[0]?.output as { sum: number } | undefined)?.sum}`,
  );
  const result = await generateText({
    model,
    system: 'You are calc, a member of the team "t"',
    prompt: '[turn: task task-9]\nAdd',
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
    reason: 'task',
    taskId: 'task-9',
    step: 0,
    tools: ['add'],
  });
  expect(model.calls[1]).toMatchObject({ step: 1, toolResults: [{ toolName: 'add', output: { sum: 5 } }] });
  expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
});

test('it streams too', async () => {
  const model = scriptedModel(['streamed words']);
  const result = streamText({ model, prompt: 'go' });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  expect(text).toBe('streamed words');
});

test('simulated latency waits, and an abort stops the wait', async () => {
  const model = scriptedModel(['late'], { latencyMs: 3_600_000 });
  const controller = new AbortController();
  const pending = generateText({ model, prompt: 'go', abortSignal: controller.signal, maxRetries: 0 });
  controller.abort();
  await expect(pending).rejects.toThrow();
});
