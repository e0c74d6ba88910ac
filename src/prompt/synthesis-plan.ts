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

/** A team as a synthesis is planned for: its prompts and its prompt budget. */
export type SynthesisTeam = TeamShape & { readonly promptBudgetTokens: number };

/** The tokens each part's inputs may take: the lead's room under the budget, less the run's input. */
function spaceOf(team: SynthesisTeam, input: string): number {
  return synthesisSpace(input, briefingRoom(team.promptBudgetTokens, systemPrompt(team, team.lead)));
}

/**
 * How the lead writes the final answer over `tasks`: one turn when every result fits in one
 * prompt (`whole`), else in parts (level 1 packs the task results into parts; each later
 * level, planned by `nextSynthesis`, packs the summaries of the one before).
 */
export function planSynthesis(
  team: SynthesisTeam,
  input: string,
  tasks: readonly TeamTask[],
): { readonly synthesis: 'whole' } | { readonly synthesis: 'parts'; readonly parts: SynthesisPart[] } {
  const space = spaceOf(team, input);
  const source: SynthesisSource = { tasks, summaries: new Map() };
  const groups = pack(
    tasks.map((task) => task.id),
    synthesisBlocks(null, source, space),
    space,
  );
  return groups.length <= 1 ? { synthesis: 'whole' } : { synthesis: 'parts', parts: level(1, groups) };
}

/** What a synthesis in parts needs of the run: the parts planned so far, the summaries written, whether it is done. */
export interface SynthesisProgress {
  readonly synthesis: 'none' | 'whole' | 'parts';
  readonly parts: readonly SynthesisPart[];
  readonly done: boolean;
}

/**
 * The next step of a synthesis, from its progress alone (so a resumed run goes on where it
 * was cut): a turn (`part` is `null` for the whole synthesis in one turn), the next level to
 * plan once every part planned so far has its summary, or nothing left. A level that would
 * not shrink could go on for ever: its summaries then go to the final part, cut if they must be.
 */
export function nextSynthesis(
  progress: SynthesisProgress,
  summaries: ReadonlyMap<string, string>,
  team: SynthesisTeam,
  input: string,
):
  | { readonly kind: 'turn'; readonly part: SynthesisPart | null }
  | { readonly kind: 'plan'; readonly parts: SynthesisPart[] }
  | { readonly kind: 'done' } {
  if (progress.done || progress.synthesis === 'none') return { kind: 'done' };
  if (progress.synthesis === 'whole') return { kind: 'turn', part: null };
  const key = (part: SynthesisPart) => `${part.level}.${part.index}`;
  const waiting = progress.parts.find((part) => !part.final && !summaries.has(key(part)));
  const final = progress.parts.find((part) => part.final);
  if (waiting) return { kind: 'turn', part: waiting };
  if (final) return { kind: 'turn', part: final };
  const levels = progress.parts.map((part) => part.level);
  const last = progress.parts.filter((part) => part.level === Math.max(...levels));
  const keys = last.map(key);
  const number = (last[0]?.level ?? 0) + 1;
  const finalPart: SynthesisPart = { level: number, index: 1, of: 1, inputs: keys, final: true };
  const space = spaceOf(team, input);
  const groups = pack(keys, synthesisBlocks(finalPart, { tasks: [], summaries }, space), space);
  if (groups.length <= 1 || groups.length >= last.length) return { kind: 'plan', parts: [finalPart] };
  return { kind: 'plan', parts: level(number, groups) };
}
