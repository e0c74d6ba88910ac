import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type FakeOpenAIServer, fakeOpenAIServer, type ModelFault } from 'agent-teams/testing';
import { generateText, streamText, tool } from 'ai';
import { afterEach, expect, test } from 'vitest';
import { z } from 'zod';

// The faults on the wire, plain and streamed: what a client receives is what a faulty
// provider sends. What a whole team makes of them is test/team/model-faults.test.ts.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(fault: ModelFault) {
  // Only the second call (index 1) is faulted: the first shows the script still answers.
  const server = await fakeOpenAIServer(['fine', 'fine'], {
    faults: (call) => (call.index === 1 ? fault : undefined),
  });
  servers.push(server);
  const post = (stream: boolean) =>
    fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
    });
  return { server, post };
}

/** The chunks of a streamed answer, the `[DONE]` mark left out. */
const chunksOf = (text: string) =>
  text
    .split('\n\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => line.slice('data: '.length));

test.each([false, true])(
  'a status fault sends the status, OpenAI’s error body and Retry-After (stream: %s)',
  async (stream) => {
    const { server, post } = await serve({ kind: 'status', status: 429, retryAfterSeconds: 3 });
    expect((await post(stream)).status).toBe(200);
    const response = await post(stream);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(await response.json()).toEqual({
      error: {
        message: 'Rate limit reached (a fault injected by fakeOpenAIServer)',
        type: 'rate_limit_exceeded',
      },
    });
    expect(server.faulted).toEqual([
      { call: server.calls[1], fault: { kind: 'status', status: 429, retryAfterSeconds: 3 } },
    ]);
  },
);

test('a 500 has no Retry-After unless asked, and carries a given message', async () => {
  const { post } = await serve({ kind: 'status', status: 500, message: 'overloaded' });
  await post(false);
  const response = await post(false);
  expect(response.status).toBe(500);
  expect(response.headers.get('retry-after')).toBeNull();
  expect(await response.json()).toMatchObject({ error: { message: 'overloaded', type: 'server_error' } });
});

test.each([false, true])(
  'a reset connection fails the request before any answer (stream: %s)',
  async (stream) => {
    const { post } = await serve({ kind: 'reset' });
    await post(stream);
    const error = await post(stream).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
  },
);

test('a hung call never gets an answer, and close() still ends the server and the call', async () => {
  const { server, post } = await serve({ kind: 'hang' });
  await post(false);
  const hung = post(false).then(
    () => 'answered',
    () => 'cut off',
  );
  // Wait until the server has the call, then close with it still open.
  while (server.calls.length < 2) await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  expect(await hung).toBe('cut off');
});

test('malformed JSON is a 200 whose body, or streamed chunk, does not parse', async () => {
  const { post } = await serve({ kind: 'malformed-json' });
  await post(false);
  const plain = await post(false);
  expect(plain.status).toBe(200);
  const body = await plain.text();
  expect(() => JSON.parse(body)).toThrow(SyntaxError);
  const { post: postStreamed } = await serve({ kind: 'malformed-json' });
  await postStreamed(true);
  const chunks = chunksOf(await (await postStreamed(true)).text());
  expect(chunks).toHaveLength(1);
  expect(() => JSON.parse(chunks[0] ?? '')).toThrow(SyntaxError);
});

test.each([false, true])(
  'tool faults and the empty reply are well-formed completions (stream: %s)',
  async (stream) => {
    const answers: unknown[] = [];
    for (const fault of [
      { kind: 'invalid-tool-arguments', toolName: 'update_task' },
      { kind: 'unknown-tool' },
      { kind: 'empty' },
    ] as const) {
      const { post } = await serve(fault);
      await post(stream);
      const text = await (await post(stream)).text();
      // Plain: the message; streamed: the first chunk's delta (the second only finishes).
      const parsed = stream ? chunksOf(text).map((chunk) => JSON.parse(chunk)) : [JSON.parse(text)];
      const message = stream ? parsed[0].choices[0].delta : parsed[0].choices[0].message;
      answers.push({
        content: message.content || null,
        calls: message.tool_calls?.map((c: { function: unknown }) => c.function),
      });
    }
    expect(answers).toEqual([
      { content: null, calls: [{ name: 'update_task', arguments: '{"taskId": "task-1", "stat' }] },
      { content: null, calls: [{ name: 'no_such_tool', arguments: '{}' }] },
      { content: null, calls: undefined },
    ]);
  },
);

test('through the AI SDK, invalid arguments become a tool error alike, plain and streamed', async () => {
  const server = await fakeOpenAIServer(['done'], {
    faults: (call) => (call.step === 0 ? { kind: 'invalid-tool-arguments', toolName: 'look' } : undefined),
  });
  servers.push(server);
  const model = createOpenAICompatible({ name: 'fake', baseURL: server.url }).chatModel('m');
  const tools = { look: tool({ inputSchema: z.object({ q: z.string() }), execute: async () => 'seen' }) };
  const options = { model, tools, prompt: 'look', maxRetries: 0 };
  const plain = await generateText(options);
  const streamed = streamText(options);
  for (const content of [plain.content, await streamed.content]) {
    expect(content).toMatchObject([
      { type: 'tool-call', toolName: 'look', invalid: true },
      { type: 'tool-error', toolName: 'look', error: expect.stringContaining('JSON parsing failed') },
    ]);
  }
});

test('a fault a real server could not send is refused, naming it', async () => {
  const { post } = await serve({ kind: 'status', status: 200 });
  await post(false);
  const response = await post(false);
  expect(response.status).toBe(500);
  expect(await response.json()).toMatchObject({
    error: { message: 'A status fault needs an HTTP error status (400 to 599), not 200.' },
  });
});
