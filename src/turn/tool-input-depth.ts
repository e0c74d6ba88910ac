import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';

// A model may send a tool call whose input nests objects and lists thousands of levels deep.
// JSON.parse takes that, but JSON.stringify (and so the AI SDK, writing the call into the
// next step's prompt, and every log of it) overflows the stack past a few thousand levels,
// and the turn would fail on it. The seam is the model's answer, before the AI SDK parses a
// call's input text: an input nested past the limit is replaced by a text that says so,
// which no parser takes. The SDK then answers that call as an invalid tool call, a tool
// error that the model reads (with the reason), and the turn goes on. Every tool, the
// team's and an agent's own, is bounded alike.

/** How deep a tool call's input may nest: objects and lists inside each other. */
const MAX_INPUT_DEPTH = 64;

/** The deepest nesting of the objects and lists of JSON text (strings skipped); one pass, no recursion. */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

/** The call's input text, or in its place the reason it is refused (not JSON, so the SDK refuses the call). */
function bounded(input: string): string {
  const depth = nesting(input);
  if (depth <= MAX_INPUT_DEPTH) return input;
  return `Refused: this input nests ${depth} levels deep (objects and lists inside each other), past the limit of ${MAX_INPUT_DEPTH}; call again with a flatter input.`;
}

function boundContent(content: LanguageModelV3Content): LanguageModelV3Content {
  return content.type === 'tool-call' ? { ...content, input: bounded(content.input) } : content;
}

/** Each model bounded once: a turn's model is wrapped for every turn, and the wrapper holds nothing of a turn. */
const boundModels = new WeakMap<LanguageModelV3, LanguageModelV3>();

/** `model`, its tool calls' inputs bounded in depth (see above). */
export function boundToolInputDepth(model: LanguageModelV3): LanguageModelV3 {
  let bound = boundModels.get(model);
  if (!bound) {
    bound = boundOnce(model);
    boundModels.set(model, bound);
  }
  return bound;
}

function boundOnce(model: LanguageModelV3): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        return { ...result, content: result.content.map(boundContent) };
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        const stream = result.stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            transform: (part, controller) =>
              controller.enqueue(part.type === 'tool-call' ? { ...part, input: bounded(part.input) } : part),
          }),
        );
        return { ...result, stream };
      },
    },
  });
}
