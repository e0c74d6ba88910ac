import type { StepResult, Tool, ToolExecutionOptions, ToolSet } from 'ai';
import type { KnownPrice } from '../agent/price-data.js';
import { type NoPrice, stepUsage } from '../agent/usage.js';
import { cutTo, LIMITS } from '../events/limits.js';
import type { TeamEventDraft } from '../events/team-event-map.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamStore } from '../store/team-store.js';
import type { StepResponse } from './step-commits.js';
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

/** What a transcript prices and names each step's usage by: the agent's model. */
export interface TranscriptModel {
  /** As usage events name it (`provider/id`). */
  readonly name: string;
  /** Its price, looked up at its first answer (without waiting for anything: the commit would wait). */
  price(): KnownPrice | NoPrice;
}

/** A turn's briefing as its transcript's first event, for the commit that reads it (or the first step's). */
export function promptDraft(descriptor: TurnDescriptor, prompt: string): TeamEventDraft {
  const { agent, turn, reason, taskId } = descriptor;
  const data = { agent, turn, reason, taskId, prompt: cutTo(prompt, LIMITS.promptInLog, null) };
  return { type: 'team:turn-prompt', data };
}

/**
 * A turn's transcript and usage, committed through the store (so it works wherever the turn
 * runs) on the turn's own commits, never on commits of their own: the briefing with the
 * briefing's read (`promptDraft`); then each step's commit, made as its model call answers and
 * before its tools run (`response`), holding what came since the last (the tools' answers, the
 * messages given before the step), the step's usage, its text and its tool calls. What is left
 * when the turn ends (the answers of a last step's tools, what a cut turn had) goes in `flush`.
 * A commit that fails fails the turn.
 */
export class TurnTranscript {
  readonly #store: TeamStore;
  readonly #turn: TurnDescriptor;
  readonly #model: TranscriptModel;
  /** Events made since the last commit, in order: they go with the next. */
  readonly #pending: TeamEventDraft[] = [];
  /** The step the next answer of the model is: its steps are counted as they answer. */
  #step = 0;
  /** Tool calls that reached their tool (the others were refused by the SDK). */
  readonly #executed = new Set<string>();

  constructor(store: TeamStore, turn: TurnDescriptor, model: TranscriptModel) {
    this.#store = store;
    this.#turn = turn;
    this.#model = model;
  }

  /** The briefing, when it could not go with the briefing's read: it goes with the next commit. */
  prompt(prompt: string): void {
    this.#pending.push(promptDraft(this.#turn, prompt));
  }

  /** What the turn was given before step `step` (messages that came while it ran), marked so. */
  given(step: number, text: string, messageIds: readonly string[]): void {
    const { agent, turn, reason, taskId } = this.#turn;
    const prompt = cutTo(text, LIMITS.promptInLog, null);
    const data = { agent, turn, reason, taskId, prompt, step, messageIds };
    this.#pending.push({ type: 'team:turn-prompt', data });
  }

  /** The tools, each noting its answer (or its error) for the next commit. */
  wrap(tools: ToolSet): ToolSet {
    const wrapped: ToolSet = {};
    for (const [name, tool] of Object.entries(tools)) {
      wrapped[name] = tool.execute
        ? ({ ...tool, execute: this.#wrapExecute(name, tool.execute) } as Tool)
        : tool;
    }
    return wrapped;
  }

  /**
   * A step's commit, as its model call answers: what came since the last commit, the step's
   * usage (priced), its text, and each tool call before any tool runs.
   */
  async response(response: StepResponse): Promise<void> {
    const { agent, turn, role, taskId } = this.#turn;
    const step = this.#step++;
    const usage = stepUsage(response.usage, this.#model.price());
    const drafts = this.#pending.splice(0);
    drafts.push({
      type: 'team:turn-usage',
      data: {
        member: agent,
        role,
        turn,
        step,
        model: this.#model.name,
        ...(response.responseId ? { responseId: response.responseId } : {}),
        usage,
      },
    });
    if (response.text) {
      const text = cutTo(response.text, LIMITS.taskText, null);
      drafts.push({ type: 'team:turn-text', data: { agent, turn, step, text } });
    }
    for (const call of response.toolCalls) {
      const { toolCallId, toolName } = call;
      const input = cutTool(parsedInput(call.input));
      drafts.push({ type: 'team:tool-called', data: { agent, turn, taskId, toolCallId, toolName, input } });
    }
    await this.#commit(drafts);
  }

  /** A step whose tools answered: the calls the AI SDK refused before any tool ran (unknown tool, input that does not parse) get their error. */
  stepEnded(step: StepResult<ToolSet>): void {
    for (const part of step.content) {
      if (part.type === 'tool-error' && !this.#executed.has(part.toolCallId))
        this.#answered(part.toolName, part.toolCallId, describeError(part.error), true);
    }
  }

  /** Commits what is left (the turn ended, failed or was cut); nothing when nothing is. */
  async flush(): Promise<void> {
    if (this.#pending.length > 0) await this.#commit(this.#pending.splice(0));
  }

  #wrapExecute(name: string, execute: Execute): Execute {
    const after = (id: string, output: unknown, isError: boolean) =>
      this.#answered(name, id, isError ? describeError(output) : output, isError);
    if (isGeneratorFunction(execute)) {
      // A tool that streams preliminary results keeps streaming them; its last one is its answer.
      const transcript = this;
      return async function* (input: unknown, options: ToolExecutionOptions) {
        transcript.#executed.add(options.toolCallId);
        let last: unknown;
        try {
          for await (const value of execute(input, options) as AsyncIterable<unknown>) {
            last = value;
            yield value;
          }
        } catch (error) {
          after(options.toolCallId, error, true);
          throw error;
        }
        after(options.toolCallId, last, false);
      };
    }
    return async (input: unknown, options: ToolExecutionOptions) => {
      this.#executed.add(options.toolCallId);
      try {
        let output: unknown = await execute(input, options);
        // A plain function that hands back an iterable: its answer is the last value.
        if (isAsyncIterable(output)) for await (const value of output) output = value;
        after(options.toolCallId, output, false);
        return output;
      } catch (error) {
        after(options.toolCallId, error, true);
        throw error;
      }
    };
  }

  #answered(toolName: string, toolCallId: string, output: unknown, isError: boolean): void {
    const { agent, turn } = this.#turn;
    const data = { agent, turn, toolCallId, toolName, output: cutTool(output), isError };
    this.#pending.push({ type: 'team:tool-result', data });
  }

  async #commit(drafts: readonly TeamEventDraft[]): Promise<void> {
    await this.#store.transact(this.#turn.team, ({ emit }) => {
      for (const draft of drafts) emit(draft);
    });
  }
}

/** A call's arguments as the model sent them: the JSON value where they parse, else the text. */
function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
