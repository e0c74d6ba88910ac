import type { SharedV3ProviderOptions } from '@ai-sdk/provider';
import { z } from 'zod';
import { plainObject, wholeNumber } from '../errors/options-schema.js';

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

/**
 * The schemas of an agent's model settings, so a typo fails at `new Agent`, not at the first
 * call. The AI SDK checks each provider's own options.
 */
export const MODEL_SETTINGS_SHAPE = {
  temperature: z
    .number({ error: 'a number from 0 to 2' })
    .min(0, { error: 'a number from 0 to 2' })
    .max(2, { error: 'a number from 0 to 2' })
    .optional(),
  maxOutputTokens: wholeNumber(1).optional(),
  providerOptions: z
    .record(z.string(), plainObject("an object of that provider's options"), {
      error: 'an object of options by provider name, like { openai: { ... } }',
    })
    .optional(),
} satisfies Record<keyof ModelSettings, z.ZodType>;
