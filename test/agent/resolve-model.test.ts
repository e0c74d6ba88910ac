import { resolveModel } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordingServer } from '../helpers/recording-server.js';

let server: Awaited<ReturnType<typeof recordingServer>>;
beforeAll(async () => {
  server = await recordingServer();
});
afterAll(() => server.close());

async function firstRequest(model: ReturnType<typeof resolveModel>) {
  const before = server.requests.length;
  await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(() => undefined);
  return server.requests[before];
}

describe('resolveModel', () => {
  test('openai/<id> speaks the Responses API with OPENAI_API_KEY at OPENAI_BASE_URL', async () => {
    const model = resolveModel('openai/gpt-5.5', {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${server.origin}/v1`,
    });
    expect(model.modelId).toBe('gpt-5.5');
    const request = await firstRequest(model);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/responses' });
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(request?.body ?? '{}').model).toBe('gpt-5.5');
  });

  test('anthropic/<id> uses ANTHROPIC_API_KEY', async () => {
    const model = resolveModel('anthropic/claude-sonnet-4-5', {
      ANTHROPIC_API_KEY: 'ak-test',
      ANTHROPIC_BASE_URL: `${server.origin}/v1`,
    });
    const request = await firstRequest(model);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request?.headers['x-api-key']).toBe('ak-test');
  });

  test('ollama/<id> talks to OLLAMA_BASE_URL, given with or without /api', async () => {
    for (const base of [server.origin, `${server.origin}/api`, `${server.origin}/`]) {
      const request = await firstRequest(resolveModel('ollama/llama3.2', { OLLAMA_BASE_URL: base }));
      expect(request).toMatchObject({ method: 'POST', path: '/api/chat' });
    }
  });

  test('openai-compatible/<id> speaks chat completions at OPENAI_COMPATIBLE_BASE_URL, key optional', async () => {
    const request = await firstRequest(
      resolveModel('openai-compatible/qwen3', { OPENAI_COMPATIBLE_BASE_URL: `${server.origin}/v1` }),
    );
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBeUndefined();
    const keyed = await firstRequest(
      resolveModel('openai-compatible/qwen3', {
        OPENAI_COMPATIBLE_BASE_URL: `${server.origin}/v1`,
        OPENAI_COMPATIBLE_API_KEY: 'ck',
      }),
    );
    expect(keyed?.headers.authorization).toBe('Bearer ck');
  });

  test.each([
    ['openai/gpt-5.5', 'OPENAI_API_KEY'],
    ['anthropic/claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['openai-compatible/x', 'OPENAI_COMPATIBLE_BASE_URL'],
  ])('%s without %s is a clear error naming the variable', (spec, variable) => {
    expect(() => resolveModel(spec, {})).toThrow(
      `The model ${spec} needs ${variable}: set it in the environment.`,
    );
  });

  test.each(['gpt-5.5', 'mistral/large', 'openai/', '/x', ''])(
    '"%s" is an unknown model, with the providers listed',
    (spec) => {
      expect(() => resolveModel(spec, {})).toThrow(
        /Unknown model .*openai, anthropic, ollama, openai-compatible/,
      );
    },
  );

  test('an AI SDK model object is used as it is', () => {
    const model = scriptedModel(['hi']);
    expect(resolveModel(model)).toBe(model);
    expect(() => resolveModel({} as never)).toThrow('A model is an AI SDK language model');
  });
});
