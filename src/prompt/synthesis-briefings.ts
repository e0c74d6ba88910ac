import type { TeamTask } from '../board/task.js';
import type { SynthesisPart } from '../events/team-event-map.js';
import { cutToTokens, tokenBound } from './tokens.js';

// The lead's final answer from the team's results. When the results do not fit in one
// prompt, they are summarised in parts (each a turn of its own) and the answer is written
// from the parts' summaries; src/run/synthesis-batches.ts plans the parts.

/** One task's result as a synthesis reads it. */
function resultBlock(task: TeamTask): string {
  const by = task.closed ? 'closed' : task.status === 'completed' ? `by ${task.owner}` : task.status;
  // The note says why a task was left undone (handed back, blocked): the answer can say so.
  const note = task.note ? `\nNote: ${task.note}` : '';
  return `[${task.id}] ${task.title} (${by})\n${task.result ?? '(no result)'}${note}`;
}

/** A summary of a part as the next level or the final answer reads it. */
function summaryBlock(key: string, text: string): string {
  return `[summary of part ${key}]\n${text}`;
}

function request(input: string, room: number): string {
  return cutToTokens(`Request:\n${input}`, Math.floor(room / 4));
}

/**
 * The synthesis briefing for `part` (none: every result fits in one prompt) over `blocks`
 * (results, or the summaries of the level before), cut to `room` as a last resort.
 */
export function synthesisBriefing(
  input: string,
  part: SynthesisPart | null,
  blocks: readonly string[],
  room: number,
): string {
  const head =
    part && !part.final
      ? `[turn: synthesis part ${part.level}.${part.index} of ${part.of}]`
      : '[turn: synthesis]';
  const [intro, closing] = !part
    ? ["Results of the team's tasks:", 'Write the final answer to the request from these results.']
    : part.final
      ? [
          "The team's results were too long for one prompt and were summarised in parts. The summaries:",
          'Write the final answer to the request from these summaries.',
        ]
      : [
          `The team's results are too long for one prompt: this is part ${part.index} of ${part.of}${part.level > 1 ? ' over the summaries of the parts before' : ''}.`,
          'Summarise these for the request, keeping every fact, figure and source the final answer needs; ' +
            'a later turn writes the answer from the summaries of all parts.',
        ];
  const text = [head, request(input, room), `${intro}\n\n${blocks.join('\n\n')}`, closing].join('\n\n');
  return cutToTokens(text, room, 'the whole is in the task list');
}

/** Tokens of a synthesis briefing besides its blocks: what the planner leaves room for. */
function synthesisOverhead(input: string, part: SynthesisPart | null, room: number): number {
  return tokenBound(synthesisBriefing(input, part, [], room), room) + 8;
}

const WIDEST_PART: SynthesisPart = { level: 99, index: 99_999, of: 99_999, inputs: [], final: false };
const FINAL_PART: SynthesisPart = { level: 99, index: 1, of: 1, inputs: [], final: true };

/** Tokens a synthesis briefing has for its blocks, whichever part it is. */
export function synthesisSpace(input: string, room: number): number {
  const overheads = [null, WIDEST_PART, FINAL_PART].map((part) => synthesisOverhead(input, part, room));
  return room - Math.max(...overheads) - 16;
}

/** What a synthesis turn reads: the results of its tasks, or the summaries its part names. */
export interface SynthesisSource {
  readonly tasks: readonly TeamTask[];
  readonly summaries: ReadonlyMap<string, string>;
}

/**
 * The blocks a synthesis turn reads, each cut to fit: a result to the whole space, a summary
 * to half of it less the blank lines between (so a level of summaries always packs at least two to
 * a part, and the levels end).
 */
export function synthesisBlocks(
  part: SynthesisPart | null,
  source: SynthesisSource,
  space: number,
): string[] {
  if (!part || part.level === 1) {
    const wanted = part ? new Set(part.inputs) : undefined;
    const tasks = wanted ? source.tasks.filter((task) => wanted.has(task.id)) : source.tasks;
    return tasks.map((task) => cutToTokens(resultBlock(task), space, 'the whole result is in the task list'));
  }
  return part.inputs.map((key) =>
    cutToTokens(summaryBlock(key, source.summaries.get(key) ?? '(no summary)'), Math.floor(space / 2) - 4),
  );
}
