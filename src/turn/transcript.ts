import type { TextStreamPart, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { cutTo, LIMITS } from '../events/limits.js';
import type { TeamEventDraft } from '../events/team-event-map.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamStore } from '../store/team-store.js';
import { describeError } from './turn-outcome.js';

type Execute = NonNullable<Tool['execute']>;

/** A value as transcript text: a string as it is, anything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** What a transcript keeps of a tool's input or answer: cut with a marker, never dropped. */
const cutTool = (value: unknown) => cutTo(asText(value), LIMITS.toolText, null);

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

const isGeneratorFunction = (fn: Execute) =>
  Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';

/**
 * A turn's transcript, committed through the store as the turn goes (so it works wherever the
 * turn runs): its briefing, each step's text, and each tool call before the tool runs and its
 * result after. Commits keep the order they were made in; ones made while another is on its
 * way go together in the next. A commit that fails fails the turn (see `settled`).
 */
export class TurnTranscript {
  readonly #store: TeamStore;
  readonly #turn: TurnDescriptor;
  readonly #queue: TeamEventDraft[] = [];
  #flushing: Promise<void> | undefined;
  #failure: { readonly error: unknown } | undefined;
  /** The current step of the tool loop, and its text not committed yet. */
  #step = -1;
  #text = '';
  /** Tool calls the model stream has passed (their step's text before them is in `#text`). */
  readonly #passed = new Map<string, () => void>();
  readonly #waiting = new Map<string, Promise<void>>();
  /** Tool calls that reached their tool (the others were invalid: the stream reports them). */
  readonly #executed = new Set<string>();

  constructor(store: TeamStore, turn: TurnDescriptor) {
    this.#store = store;
    this.#turn = turn;
  }

  prompt(prompt: string): void {
    const { agent, turn, reason, taskId } = this.#turn;
    const data = { agent, turn, reason, taskId, prompt: cutTo(prompt, LIMITS.promptInLog, null) };
    void this.#commit({ type: 'team:turn-prompt', data });
  }

  /** What the turn was given before step `step` (messages that came while it ran), marked so. */
  given(step: number, text: string, messageIds: readonly string[]): void {
    const { agent, turn, reason, taskId } = this.#turn;
    const prompt = cutTo(text, LIMITS.promptInLog, null);
    const data = { agent, turn, reason, taskId, prompt, step, messageIds };
    void this.#commit({ type: 'team:turn-prompt', data });
  }

  /** The tools, each committing its call before it runs and its answer after. */
  wrap(tools: ToolSet): ToolSet {
    const wrapped: ToolSet = {};
    for (const [name, tool] of Object.entries(tools)) {
      wrapped[name] = tool.execute
        ? ({ ...tool, execute: this.#wrapExecute(name, tool.execute) } as Tool)
        : tool;
    }
    return wrapped;
  }

  /** Reads each part of the turn's model stream, in order. */
  part(part: TextStreamPart<ToolSet>): void {
    switch (part.type) {
      case 'start-step':
        this.#step++;
        this.#text = '';
        break;
      case 'text-delta':
        this.#text += part.text;
        break;
      case 'tool-call':
        this.#pass(part.toolCallId);
        break;
      case 'tool-error':
        // A call the SDK refused before any tool ran (unknown tool, input that does not parse).
        if (!this.#executed.has(part.toolCallId)) {
          this.#flushText();
          this.#called(part.toolName, part.toolCallId, part.input);
          this.#answered(part.toolName, part.toolCallId, describeError(part.error), true);
        }
        break;
      case 'finish-step':
        this.#flushText();
        break;
    }
  }

  /** The stream is over (or broke): no tool waits for it any more. */
  end(): void {
    for (const pass of this.#passed.values()) pass();
  }

  /** Waits for every commit; throws the first that failed. */
  async settled(): Promise<void> {
    await this.#flushing;
    if (this.#failure) throw this.#failure.error;
  }

  #wrapExecute(name: string, execute: Execute): Execute {
    const before = async (input: unknown, options: ToolExecutionOptions) => {
      this.#executed.add(options.toolCallId);
      // The step's text comes before its calls: wait until the stream has given all of it.
      await this.#streamPassed(options.toolCallId);
      this.#flushText();
      await this.#called(name, options.toolCallId, input);
    };
    const after = (id: string, output: unknown, isError: boolean) =>
      this.#answered(name, id, isError ? describeError(output) : output, isError);
    if (isGeneratorFunction(execute)) {
      // A tool that streams preliminary results keeps streaming them; its last one is its answer.
      const transcript = this;
      return async function* (input: unknown, options: ToolExecutionOptions) {
        await before(input, options);
        let last: unknown;
        try {
          for await (const value of execute(input, options) as AsyncIterable<unknown>) {
            last = value;
            yield value;
          }
        } catch (error) {
          await after(options.toolCallId, error, true);
          throw error;
        }
        await transcript.#answered(name, options.toolCallId, last, false);
      };
    }
    return async (input: unknown, options: ToolExecutionOptions) => {
      await before(input, options);
      try {
        let output: unknown = await execute(input, options);
        // A plain function that hands back an iterable: its answer is the last value.
        if (isAsyncIterable(output)) for await (const value of output) output = value;
        await after(options.toolCallId, output, false);
        return output;
      } catch (error) {
        await after(options.toolCallId, error, true);
        throw error;
      }
    };
  }

  #streamPassed(id: string): Promise<void> {
    let waiting = this.#waiting.get(id);
    if (!waiting) {
      waiting = new Promise<void>((resolve) => this.#passed.set(id, resolve));
      this.#waiting.set(id, waiting);
    }
    return waiting;
  }

  #pass(id: string): void {
    void this.#streamPassed(id);
    this.#passed.get(id)?.();
  }

  #flushText(): void {
    if (!this.#text) return;
    const { agent, turn } = this.#turn;
    const text = cutTo(this.#text, LIMITS.taskText, null);
    this.#text = '';
    void this.#commit({ type: 'team:turn-text', data: { agent, turn, step: Math.max(0, this.#step), text } });
  }

  #called(toolName: string, toolCallId: string, input: unknown): Promise<void> {
    const { agent, turn, taskId } = this.#turn;
    const data = { agent, turn, taskId, toolCallId, toolName, input: cutTool(input) };
    return this.#commit({ type: 'team:tool-called', data });
  }

  #answered(toolName: string, toolCallId: string, output: unknown, isError: boolean): Promise<void> {
    const { agent, turn } = this.#turn;
    const data = { agent, turn, toolCallId, toolName, output: cutTool(output), isError };
    return this.#commit({ type: 'team:tool-result', data });
  }

  /** Resolves once the draft is committed (or its commit failed: `settled` tells). */
  #commit(draft: TeamEventDraft): Promise<void> {
    this.#queue.push(draft);
    this.#flushing ??= this.#drain();
    return this.#flushing;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      try {
        await this.#store.transact(this.#turn.team, ({ emit }) => {
          for (const draft of batch) emit(draft);
        });
      } catch (error) {
        this.#failure ??= { error };
      }
    }
    // Cleared in the same step as the last look at the queue: a later commit starts a new drain.
    this.#flushing = undefined;
  }
}
