import type { TeamTask } from '../board/task.js';
import type { SynthesisPart } from '../events/team-event-map.js';
import { briefingRoom, systemPrompt, type TeamShape } from './prompt-room.js';
import { type SynthesisSource, synthesisBlocks, synthesisSpace } from './synthesis-briefings.js';
import { countTokens, fitsTokens } from './tokens.js';

/** Tokens a block adds besides its own: the blank line between blocks. */
const SEPARATOR = 2;

/** The inputs in order, packed into groups that each fit in `space` tokens. */
function pack(keys: readonly string[], blocks: readonly string[], space: number): string[][] {
  if (fitsTokens(blocks.join('\n\n'), space)) return [[...keys]];
  const groups: string[][] = [];
  let group: string[] = [];
  let used = 0;
  blocks.forEach((block, at) => {
    const size = countTokens(block) + SEPARATOR;
    if (group.length > 0 && used + size > space) {
      groups.push(group);
      group = [];
      used = 0;
    }
    group.push(keys[at] as string);
    used += size;
  });
  if (group.length > 0) groups.push(group);
  return groups;
}

function level(number: number, groups: readonly string[][]): SynthesisPart[] {
  return groups.map((inputs, at) => ({
    level: number,
    index: at + 1,
    of: groups.length,
    inputs,
    final: false,
  }));
}

/**
 * The parts of a synthesis whose results do not fit in one prompt, planned one level at a
 * time: level 1 packs the task results into parts, each later level packs the summaries of
 * the one before, until they fit in the final part. The run's loop holds the plan and asks
 * for the next part each time the lead is free; the summaries are read from the run state
 * (the fold keeps them), so a part is a plain turn that any executor runs.
 */
export class SynthesisPlan {
  readonly #space: number;
  #queue: SynthesisPart[];
  #level: SynthesisPart[];
  /** The synthesis is one turn over every result (they fit in one prompt). */
  #whole: boolean;
  #done = false;

  constructor(input: string, source: SynthesisSource, room: number) {
    this.#space = synthesisSpace(input, room);
    const blocks = synthesisBlocks(null, source, this.#space);
    const groups = pack(
      source.tasks.map((task) => task.id),
      blocks,
      this.#space,
    );
    this.#whole = groups.length <= 1;
    this.#level = this.#whole ? [] : level(1, groups);
    this.#queue = [...this.#level];
  }

  /**
   * The next synthesis turn, once the ones before it have ended: `null` for the whole
   * synthesis in one turn, a part, or `undefined` once the last has been given.
   */
  next(summaries: ReadonlyMap<string, string>): SynthesisPart | null | undefined {
    if (this.#done) return undefined;
    if (this.#whole) {
      this.#done = true;
      return null;
    }
    const queued = this.#queue.shift();
    if (queued) return queued;
    const last = this.#level;
    const keys = last.map((part) => `${part.level}.${part.index}`);
    const number = (last[0]?.level ?? 0) + 1;
    const blocks = synthesisBlocks(
      { level: number, index: 1, of: 1, inputs: keys, final: true },
      { tasks: [], summaries },
      this.#space,
    );
    const groups = pack(keys, blocks, this.#space);
    // A level that would not shrink could go on for ever: its summaries go to the final part, cut if they must be.
    if (groups.length <= 1 || groups.length >= last.length) {
      this.#done = true;
      return { level: number, index: 1, of: 1, inputs: keys, final: true };
    }
    this.#level = level(number, groups);
    this.#queue = this.#level.slice(1);
    return this.#level[0];
  }
}

/** The synthesis plan of a run of `team` over `tasks`, in the lead's room under the prompt budget. */
export function planSynthesis(
  team: TeamShape & { readonly promptBudgetTokens: number },
  input: string,
  tasks: readonly TeamTask[],
): SynthesisPlan {
  const room = briefingRoom(team.promptBudgetTokens, systemPrompt(team, team.lead));
  return new SynthesisPlan(input, { tasks, summaries: new Map() }, room);
}
