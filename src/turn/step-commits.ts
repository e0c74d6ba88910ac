import type {
  LanguageModelV3,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';

/** One model call's answer, as it arrived: what a step commits before the SDK goes on with it. */
export interface StepResponse {
  readonly usage: LanguageModelV3Usage;
  /** The text it wrote (its reasoning apart). */
  readonly text: string;
  /** The tools it called, their arguments as the model sent them. */
  readonly toolCalls: readonly Pick<LanguageModelV3ToolCall, 'toolCallId' | 'toolName' | 'input'>[];
  /** The provider's id of the response, where it gives one. */
  readonly responseId?: string | undefined;
}

const textOf = (content: readonly LanguageModelV3Content[]) =>
  content.map((part) => (part.type === 'text' ? part.text : '')).join('');

const callsOf = (content: readonly LanguageModelV3Content[]) =>
  content.flatMap((part) => (part.type === 'tool-call' ? [part] : []));

/**
 * The model with each of its answers handed to `onResponse`, and awaited, before the AI SDK
 * sees it: so a step's commit (its usage, its text, the tools it calls) is in the store before
 * any of its tools runs, and a turn cut after that keeps it. Streamed, the text goes through as
 * it comes; the tool calls wait for the answer's end (the SDK starts a tool on its call) and
 * pass after the commit. A call that fails, or is cut before its end, reports nothing: no
 * answer came.
 */
export function committingSteps(
  model: LanguageModelV3,
  onResponse: (response: StepResponse) => Promise<void>,
): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        await onResponse({
          usage: result.usage,
          text: textOf(result.content),
          toolCalls: callsOf(result.content),
          responseId: result.response?.id,
        });
        return result;
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        let text = '';
        let responseId: string | undefined;
        const calls: LanguageModelV3ToolCall[] = [];
        const stream = result.stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            async transform(part, controller) {
              if (part.type === 'tool-call') {
                calls.push(part);
                return;
              }
              if (part.type === 'text-delta') text += part.delta;
              if (part.type === 'response-metadata') responseId = part.id ?? responseId;
              if (part.type === 'finish') {
                await onResponse({ usage: part.usage, text, toolCalls: calls, responseId });
                for (const call of calls.splice(0)) controller.enqueue(call);
              }
              controller.enqueue(part);
            },
            // A stream that ended without its finish: its calls go on as they came.
            flush(controller) {
              for (const call of calls.splice(0)) controller.enqueue(call);
            },
          }),
        );
        return { ...result, stream };
      },
    },
  });
}
