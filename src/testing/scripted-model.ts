import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { parseOptions } from '../errors/options-schema.js';
import {
  argumentsOf,
  isGiven,
  LATENCY_SCHEMA,
  type Latency,
  replyAfter,
  roughTokens,
  type Script,
  type ScriptedCall,
  scriptedCall,
  type ToolResult,
  textOf,
} from './scripted-call.js';

/** What `scriptedModel` takes besides its script. */
export interface ScriptedModelOptions {
  /** Simulated time per call, in ms (or computed per call). Default 0. */
  latencyMs?: Latency;
  /** The model id it reports (and is priced by). Default `scripted`. */
  modelId?: string;
  /**
   * Streamed replies at a reading pace, for demos: the text comes a word at a time, this many
   * ms apart (and each other part of the stream as long after the last). Default 0: a streamed
   * reply comes whole at once, with no timer, so tests and benchmarks time the runtime alone.
   */
  pace?: number;
}

const SCRIPTED_MODEL_SCHEMA = z.strictObject({
  latencyMs: LATENCY_SCHEMA.optional(),
  modelId: z.string().min(1).optional(),
  pace: z
    .number({ error: 'a number of ms, 0 or more' })
    .min(0, { error: 'a number of ms, 0 or more' })
    .optional(),
} satisfies Record<keyof ScriptedModelOptions, z.ZodType>);

/** The tokens a model (or a model server) answered with, counted as each answer was handed over whole. */
export interface ServedTokens {
  /** Answers handed over whole: a call that failed, or was cut off before its end, is not one. */
  readonly responses: number;
  /** The input tokens those answers reported. */
  readonly inputTokens: number;
  /** The output tokens those answers reported. */
  readonly outputTokens: number;
  /** Input and output tokens together. */
  readonly totalTokens: number;
}

/** A deterministic AI SDK model answering from a script; `calls` records what it was asked. */
export interface ScriptedModel extends MockLanguageModelV3 {
  /** Every call it was asked, in order. */
  readonly calls: ScriptedCall[];
  /**
   * What it answered so far: each answer counts once it is handed over whole (a plain call's
   * when it returns, a streamed one's when its last part is read), so a team's `usage` can be
   * checked against it to the token.
   */
  readonly served: ServedTokens;
}

function outputOf(output: { type: string; value?: unknown; reason?: string }): unknown {
  if (output.type === 'json' || output.type === 'error-json') return output.value;
  if (output.type === 'execution-denied') return output.reason ?? 'denied';
  return output.value;
}

/** Reads an AI SDK prompt the way `scriptedCall` wants it. */
function fromPrompt(request: LanguageModelV3CallOptions, index: number): ScriptedCall {
  const { prompt } = request;
  const system = prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
  const lastUser = prompt.findLastIndex(
    (message) => message.role === 'user' && !isGiven(textOf(message.content)),
  );
  const after = prompt.slice(lastUser + 1);
  const lastAssistant = after.findLastIndex((message) => message.role === 'assistant');
  const given = after.flatMap((message) => (message.role === 'user' ? [textOf(message.content)] : []));
  const toolResults: ToolResult[] = [];
  for (const message of after.slice(lastAssistant + 1)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        toolResults.push({ toolName: part.toolName, output: outputOf(part.output) });
    }
  }
  return scriptedCall({
    index,
    system,
    prompt: lastUser >= 0 ? textOf(prompt[lastUser]?.content) : '',
    given,
    step: after.filter((message) => message.role === 'assistant').length,
    toolResults,
    tools: (request.tools ?? []).map((tool) => tool.name),
    headers: request.headers,
  });
}

/**
 * A deterministic AI SDK model for tests, demos and your own team's tests: its replies are
 * given in order, or computed from each call (who asks, why, what its tools answered).
 *
 * @example
 * const model = scriptedModel((call) =>
 *   call.reason === 'start'
 *     ? { toolCalls: [{ toolName: 'create_task', input: { title: 'Research tides' } }] }
 *     : 'The moon pulls the sea.');
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  parseOptions(SCRIPTED_MODEL_SCHEMA, options, 'scriptedModel');
  const calls: ScriptedCall[] = [];
  let served: ServedTokens = { responses: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const serve = (input: number, output: number) => {
    served = {
      responses: served.responses + 1,
      inputTokens: served.inputTokens + input,
      outputTokens: served.outputTokens + output,
      totalTokens: served.totalTokens + input + output,
    };
  };
  const answer = async (request: LanguageModelV3CallOptions) => {
    const call = fromPrompt(request, calls.length);
    calls.push(call);
    const reply = await replyAfter(options.latencyMs, script, call, request.abortSignal);
    const content: LanguageModelV3Content[] = [];
    if (reply.text) content.push({ type: 'text', text: reply.text });
    reply.toolCalls.forEach((toolCall, position) => {
      content.push({
        type: 'tool-call',
        toolCallId: `call-${call.index}-${position}`,
        toolName: toolCall.toolName,
        input: argumentsOf(toolCall),
      });
    });
    const input =
      roughTokens(JSON.stringify(request.prompt)) + roughTokens(JSON.stringify(request.tools ?? []));
    const output = roughTokens(JSON.stringify(content));
    return {
      input,
      output,
      content,
      finishReason: { unified: reply.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined } as const,
      usage: {
        inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: output, text: output, reasoning: 0 },
      },
      warnings: [],
    };
  };
  const model = new MockLanguageModelV3({
    provider: 'scripted',
    modelId: options.modelId ?? 'scripted',
    doGenerate: async (request) => {
      const { input, output, ...result } = await answer(request);
      serve(input, output);
      return result;
    },
    doStream: async (request) => {
      const { input, output, content, finishReason, usage } = await answer(request);
      const pace = options.pace ?? 0;
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push({ type: 'text-start', id: 'text' });
          for (const delta of pace > 0 ? words(part.text) : [part.text])
            parts.push({ type: 'text-delta', id: 'text', delta });
          parts.push({ type: 'text-end', id: 'text' });
        } else parts.push(part as LanguageModelV3StreamPart);
      }
      parts.push({ type: 'finish', finishReason, usage });
      return { stream: handedOver(parts, pace, () => serve(input, output)) };
    },
  });
  return Object.defineProperties(model, {
    calls: { value: calls, enumerable: true },
    served: { get: () => served, enumerable: true },
  }) as ScriptedModel;
}

/** Text cut after each run of spaces: streamed a word at a time, it reads as it was written. */
function words(text: string): string[] {
  return text.match(/\S*\s*/g)?.filter((word) => word !== '') ?? [text];
}

/**
 * The parts as a stream: at once (no timer at all), or `pace` ms apart; `done` is told when the
 * last is read, the answer handed over whole.
 */
function handedOver(
  parts: readonly LanguageModelV3StreamPart[],
  pace: number,
  done: () => void,
): ReadableStream<LanguageModelV3StreamPart> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (index > 0 && pace > 0) await new Promise((resolve) => setTimeout(resolve, pace));
      controller.enqueue(parts[index++] as LanguageModelV3StreamPart);
      if (index < parts.length) return;
      done();
      controller.close();
    },
  });
}
