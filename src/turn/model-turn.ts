import {
  JSONParseError,
  type LanguageModelV3,
  type SharedV3ProviderOptions,
  TypeValidationError,
} from '@ai-sdk/provider';
import {
  type LanguageModelUsage,
  type ModelMessage,
  stepCountIs,
  streamText,
  type TelemetrySettings,
  type TextStreamPart,
  type ToolSet,
} from 'ai';
import { boundToolInputDepth } from './tool-input-depth.js';

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
  /** Sees every part of the model's stream as it comes (text deltas, tool calls, steps). */
  readonly onPart?: (part: TextStreamPart<ToolSet>) => void;
  /** The AI SDK's OpenTelemetry settings for the turn's calls, when the team traces. */
  readonly telemetry?: TelemetrySettings;
  /**
   * Asked before each step after the first: what arrived for the agent since (messages), as
   * text to give it now, or `null`. What it answers is given once and kept in the turn's
   * messages, where it came, for the rest of the turn and its thread.
   */
  readonly between?: (step: number) => Promise<string | null>;
}

export interface ModelTurnOutcome {
  /** The final reply: the last step's text, or the last text the turn produced at all. */
  readonly text: string;
  readonly usage: LanguageModelUsage;
  /** This turn's messages: the briefing, the model's replies and the tool results. */
  readonly messages: readonly ModelMessage[];
}

/**
 * One turn: one AI SDK tool loop, bounded by the agent's steps, streamed so its text can be
 * shown as it comes. It fails as a non-streamed call would: a stream reports a fault (a
 * failed request after its retries, a broken chunk) as a part, and the turn throws the first.
 */
export async function runModelTurn(turn: ModelTurn): Promise<ModelTurnOutcome> {
  const briefing: ModelMessage = { role: 'user', content: turn.prompt };
  const faults: unknown[] = [];
  const initial = [...turn.history, briefing];
  // What was given between steps, each after the response messages it followed: the SDK
  // rebuilds each step's messages from the turn's start and its responses, so they are put
  // back in their places every step.
  const given: { readonly after: number; readonly message: ModelMessage }[] = [];
  const between = turn.between;
  const result = streamText({
    model: boundToolInputDepth(turn.model),
    system: turn.system,
    messages: initial,
    tools: turn.tools,
    ...(between
      ? {
          prepareStep: async ({ stepNumber, messages }: { stepNumber: number; messages: ModelMessage[] }) => {
            const responses = messages.length - initial.length;
            const fresh = stepNumber > 0 ? await between(stepNumber) : null;
            if (fresh) given.push({ after: responses, message: { role: 'user', content: fresh } });
            return given.length > 0
              ? { messages: [...initial, ...withGiven(messages.slice(initial.length), given)] }
              : {};
          },
        }
      : {}),
    stopWhen: [stepCountIs(turn.maxSteps), () => turn.halt()],
    abortSignal: turn.signal,
    maxRetries: turn.maxRetries,
    headers: turn.headers,
    temperature: turn.temperature,
    maxOutputTokens: turn.maxOutputTokens,
    providerOptions: turn.providerOptions,
    // Every 'error' part of the stream, kept for the turn to throw (the SDK's default prints them).
    onError: ({ error }) => {
      faults.push(error);
    },
    ...(turn.telemetry ? { experimental_telemetry: turn.telemetry } : {}),
  });
  for await (const part of result.fullStream) turn.onPart?.(part);
  // A stream cut by the signal ends quietly: the turn did not finish, whatever it wrote.
  turn.signal.throwIfAborted();
  if (faults.length > 0) throw asCallError(faults[0]);
  const [steps, usage, response] = await Promise.all([result.steps, result.totalUsage, result.response]);
  const text = steps.at(-1)?.text || [...steps].reverse().find((step) => step.text)?.text || '';
  return { text: text.trim(), usage, messages: [briefing, ...withGiven(response.messages, given)] };
}

/** The turn's response messages with what was given between steps put back where it came. */
function withGiven(
  responses: readonly ModelMessage[],
  given: readonly { readonly after: number; readonly message: ModelMessage }[],
): ModelMessage[] {
  const out: ModelMessage[] = [];
  let next = 0;
  for (const [index, message] of responses.entries()) {
    while (next < given.length && (given[next]?.after ?? 0) <= index)
      out.push((given[next++] as { message: ModelMessage }).message);
    out.push(message);
  }
  while (next < given.length) out.push((given[next++] as { message: ModelMessage }).message);
  return out;
}

/**
 * A stream's fault as the same call unstreamed reports it: a chunk that is not JSON (or not
 * the expected JSON) is an invalid response, whichever way it came.
 */
function asCallError(fault: unknown): unknown {
  if (JSONParseError.isInstance(fault) || TypeValidationError.isInstance(fault)) {
    return new Error('Invalid JSON response', { cause: fault });
  }
  return fault;
}
