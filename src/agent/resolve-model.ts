import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createOllama } from 'ollama-ai-provider-v2';
import { TeamError } from '../errors/index.js';

/** An AI SDK language model, or a `provider/model` string resolved by `resolveModel`. */
export type ModelSpec = LanguageModelV3 | string;

/**
 * Environment variables by name, as `process.env` holds them.
 * @inline
 */
type Environment = Readonly<Record<string, string | undefined>>;

function required(env: Environment, variable: string, spec: string): string {
  const value = env[variable];
  if (value === undefined || value.trim() === '') {
    throw new TeamError(
      'missing-api-key',
      `The model ${spec} needs ${variable}: set it in the environment.`,
      {
        details: { model: spec, variable },
      },
    );
  }
  return value;
}

const PROVIDERS = ['openai', 'anthropic', 'ollama', 'openai-compatible'] as const;

/** A `provider/model` string's provider and model id; an unknown provider is `unknown-provider`. */
function providerOf(spec: string): { provider: (typeof PROVIDERS)[number]; id: string } {
  const slash = spec.indexOf('/');
  const provider = slash > 0 ? spec.slice(0, slash) : '';
  const id = slash > 0 ? spec.slice(slash + 1) : '';
  if (!(PROVIDERS as readonly string[]).includes(provider) || id === '') {
    throw new TeamError(
      'unknown-provider',
      `Unknown model "${spec}": write provider/model with provider one of ${PROVIDERS.join(', ')} ` +
        '(e.g. openai/gpt-5.5), or pass an AI SDK model object.',
      { details: { model: spec } },
    );
  }
  return { provider: provider as (typeof PROVIDERS)[number], id };
}

/**
 * The name a spec goes by (`provider/model`): the string itself, or an AI SDK model's
 * provider and id. A string with an unknown provider is `unknown-provider`; no key is needed.
 */
export function specName(spec: ModelSpec): string {
  if (typeof spec !== 'string') return modelName(spec);
  providerOf(spec);
  return spec;
}

/**
 * The AI SDK model for a spec. Strings name a provider and a model id:
 * - `openai/<id>`: OpenAI (Responses API), `OPENAI_API_KEY`, optional `OPENAI_BASE_URL`;
 * - `anthropic/<id>`: `ANTHROPIC_API_KEY`, optional `ANTHROPIC_BASE_URL`;
 * - `ollama/<id>`: a local Ollama at `OLLAMA_BASE_URL` (default http://127.0.0.1:11434);
 * - `openai-compatible/<id>`: any chat-completions server at `OPENAI_COMPATIBLE_BASE_URL`,
 *   with `OPENAI_COMPATIBLE_API_KEY` if it wants one.
 * A missing variable or an unknown provider is a `TeamError` naming what to set.
 */
export function resolveModel(spec: ModelSpec, env: Environment = process.env): LanguageModelV3 {
  if (typeof spec !== 'string') {
    if (typeof spec === 'object' && spec !== null && typeof spec.doGenerate === 'function') return spec;
    throw new TeamError('invalid-input', 'A model is an AI SDK language model or a "provider/model" string.');
  }
  const { provider, id } = providerOf(spec);
  switch (provider) {
    case 'openai':
      return createOpenAI({
        apiKey: required(env, 'OPENAI_API_KEY', spec),
        baseURL: env.OPENAI_BASE_URL || undefined,
      })(id);
    case 'anthropic':
      return createAnthropic({
        apiKey: required(env, 'ANTHROPIC_API_KEY', spec),
        baseURL: env.ANTHROPIC_BASE_URL || undefined,
      })(id);
    case 'ollama':
      return createOllama({ baseURL: ollamaApi(env.OLLAMA_BASE_URL) })(id);
    default:
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: required(env, 'OPENAI_COMPATIBLE_BASE_URL', spec),
        apiKey: env.OPENAI_COMPATIBLE_API_KEY || undefined,
        includeUsage: true,
      }).chatModel(id);
  }
}

/** Ollama's API lives under /api; accept the server's address with or without it. */
function ollamaApi(base: string | undefined): string {
  const root = (base || 'http://127.0.0.1:11434').replace(/\/+$/, '');
  return root.endsWith('/api') ? root : `${root}/api`;
}

/** `provider/model` for display and pricing. */
export function modelName(model: LanguageModelV3): string {
  return `${model.provider}/${model.modelId}`;
}
