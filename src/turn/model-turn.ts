import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { generateText, type LanguageModelUsage, type ModelMessage, stepCountIs, type ToolSet } from 'ai';

export interface ModelTurn {
  readonly model: LanguageModelV3;
  readonly system: string;
  /** The agent's earlier turns in this thread. */
  readonly history: readonly ModelMessage[];
  /** This turn's briefing. */
  readonly prompt: string;
  readonly tools: ToolSet;
  readonly maxSteps: number;
  readonly signal: AbortSignal;
  /** Retries of a failed model call, with the AI SDK's backoff. */
  readonly maxRetries: number;
  /** Checked after each step: true ends the turn there. */
  readonly halt: () => boolean;
  /** Who asks and why, sent with every model call (see turn-headers.ts). */
  readonly headers: Record<string, string>;
  /** The agent's model settings, passed as they are (undefined: the provider's default). */
  readonly temperature?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
  readonly providerOptions?: SharedV3ProviderOptions | undefined;
}

export interface ModelTurnOutcome {
  /** The final reply: the last step's text, or the last text the turn produced at all. */
  readonly text: string;
  readonly usage: LanguageModelUsage;
  /** This turn's messages: the briefing, the model's replies and the tool results. */
  readonly messages: readonly ModelMessage[];
}

/** One turn: one AI SDK tool loop, bounded by the agent's steps. */
export async function runModelTurn(turn: ModelTurn): Promise<ModelTurnOutcome> {
  const briefing: ModelMessage = { role: 'user', content: turn.prompt };
  const result = await generateText({
    model: turn.model,
    system: turn.system,
    messages: [...turn.history, briefing],
    tools: turn.tools,
    stopWhen: [stepCountIs(turn.maxSteps), () => turn.halt()],
    abortSignal: turn.signal,
    maxRetries: turn.maxRetries,
    headers: turn.headers,
    temperature: turn.temperature,
    maxOutputTokens: turn.maxOutputTokens,
    providerOptions: turn.providerOptions,
  });
  const text = result.text || [...result.steps].reverse().find((step) => step.text)?.text || '';
  return { text: text.trim(), usage: result.totalUsage, messages: [briefing, ...result.response.messages] };
}
