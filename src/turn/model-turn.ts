import {
  JSONParseError,
  type LanguageModelV3,
  type SharedV3ProviderOptions,
  TypeValidationError,
} from '@ai-sdk/provider';
import {
  generateText,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  streamText,
  type TelemetrySettings,
  type ToolSet,
} from 'ai';
import { committingSteps, type StepResponse } from './step-commits.js';
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
  /**
   * Each model call's answer as it arrives, awaited before its tools run (the step's commit:
   * its usage counts even if the turn is cut after it). A rejection fails the turn.
   */
  readonly onResponse: (response: StepResponse) => Promise<void>;
  /** Each step once its tools have answered (the SDK's record of it). */
  readonly onStep?: (step: StepResult<ToolSet>) => void;
  /**
   * Given when someone watches the turn: it streams, and its text comes here as the model
   * writes it. Without it (or with a model that cannot stream) each step is one plain call.
   */
  readonly onText?: (delta: string) => void;
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
  /** This turn's messages: the briefing, the model's replies and the tool results. */
  readonly messages: readonly ModelMessage[];
}

/**
 * One turn: one AI SDK tool loop, bounded by the agent's steps. It streams only when someone
 * watches (`onText`), so its text can be shown as it comes; otherwise each step is a plain
 * call, which costs less. Either way it fails the same: a stream reports a fault (a failed
 * request after its retries, a broken chunk) as a part, and the turn throws the first.
 */
export async function runModelTurn(turn: ModelTurn): Promise<ModelTurnOutcome> {
  const briefing: ModelMessage = { role: 'user', content: turn.prompt };
  const initial = [...turn.history, briefing];
  // What was given between steps, each after the response messages it followed: the SDK
  // rebuilds each step's messages from the turn's start and its responses, so they are put
  // back in their places every step.
  const given: { readonly after: number; readonly message: ModelMessage }[] = [];
  const between = turn.between;
  const settings = {
    model: committingSteps(boundToolInputDepth(turn.model), turn.onResponse),
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
    ...(turn.onStep ? { onStepFinish: turn.onStep } : {}),
    ...(turn.telemetry ? { experimental_telemetry: turn.telemetry } : {}),
  };
  const onText = turn.onText;
  const { steps, response } =
    onText && typeof turn.model.doStream === 'function'
      ? await streamed(settings, onText, turn.signal)
      : await generateText(settings).catch((error: unknown) => {
          // Cut by the signal: the turn did not finish, whatever the call was doing.
          turn.signal.throwIfAborted();
          throw error;
        });
  const text = steps.at(-1)?.text || [...steps].reverse().find((step) => step.text)?.text || '';
  return { text: text.trim(), messages: [briefing, ...withGiven(response.messages, given)] };
}

/** The tool loop streamed: its text to `onText` as it comes; the first fault it reports is thrown. */
async function streamed(
  settings: Parameters<typeof streamText<ToolSet>>[0],
  onText: (delta: string) => void,
  signal: AbortSignal,
) {
  const faults: unknown[] = [];
  const result = streamText({
    ...settings,
    // Every 'error' part of the stream, kept for the turn to throw (the SDK's default prints them).
    onError: ({ error }) => {
      faults.push(error);
    },
  });
  for await (const part of result.fullStream) if (part.type === 'text-delta' && part.text) onText(part.text);
  // A stream cut by the signal ends quietly: the turn did not finish, whatever it wrote.
  signal.throwIfAborted();
  if (faults.length > 0) throw asCallError(faults[0]);
  const [steps, response] = await Promise.all([result.steps, result.response]);
  return { steps, response };
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
