import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import { shown } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';

/** The settings of an agent's model calls, passed as they are to the AI SDK on every call. */
export interface ModelSettings {
  /**
   * Sampling temperature, 0 to 2 (the widest range a provider takes: Anthropic takes
   * up to 1). Default: the provider's.
   */
  temperature?: number;
  /** Most tokens one model call may write. Default: the provider's. */
  maxOutputTokens?: number;
  /**
   * Options for the provider, by provider name, as the AI SDK takes them:
   * `{ openai: { reasoningEffort: 'low' } }`, `{ anthropic: { thinking: { type: 'enabled', budgetTokens: 2000 } } }`.
   */
  providerOptions?: SharedV3ProviderOptions;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks an agent's model settings, so a typo fails at `new Agent`, not at the first call. */
export function checkModelSettings(agent: string, settings: ModelSettings): ModelSettings {
  const { temperature, maxOutputTokens, providerOptions } = settings;
  if (
    temperature !== undefined &&
    !(typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)
  ) {
    throw new TeamError(
      'invalid-input',
      `temperature of ${agent} must be a number from 0 to 2, not ${shown(temperature)}.`,
    );
  }
  if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && maxOutputTokens >= 1)) {
    throw new TeamError(
      'invalid-input',
      `maxOutputTokens of ${agent} must be a whole number of at least 1, not ${shown(maxOutputTokens)}.`,
    );
  }
  if (providerOptions !== undefined) {
    if (!isPlainObject(providerOptions)) {
      throw new TeamError(
        'invalid-input',
        `providerOptions of ${agent} must be an object of options by provider name, like { openai: { ... } }.`,
      );
    }
    for (const [provider, options] of Object.entries(providerOptions)) {
      if (!isPlainObject(options)) {
        throw new TeamError(
          'invalid-input',
          `providerOptions.${provider} of ${agent} must be an object of that provider's options, not ${shown(options)}.`,
        );
      }
    }
  }
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    ...(providerOptions !== undefined ? { providerOptions } : {}),
  };
}
