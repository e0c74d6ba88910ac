import type { TokenUsage } from '../../agent/usage.js';

/** 1,234 */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** $0.0123, or "unpriced" when the model has no price. */
export function money(cost: number | undefined): string {
  if (cost === undefined) return 'unpriced';
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/**
 * Which agents are unpriced and why, one reason a line (`unpriced: lead, writer: no price
 * for model llama3.2 on provider ollama (…)`), so a cost shown as "unpriced" is explained.
 */
export function unpricedLines(agents: Iterable<readonly [string, TokenUsage]>): string[] {
  const byReason = new Map<string, string[]>();
  for (const [name, usage] of agents) {
    for (const reason of usage.unpriced ?? []) byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  return [...byReason].map(([reason, names]) => `unpriced: ${names.join(', ')}: ${reason}`);
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

// Made at the first text too long to print whole that is not `SIMPLE`: making one loads ICU's
// break rules (~20 ms of the `tasks` command).
let graphemes: Intl.Segmenter | undefined;
const SIMPLE = /^[\x20-\x7e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e]*$/;

/**
 * On one line, cut to `length` characters (as a person counts them: an emoji or an accented
 * letter is one), with an ellipsis: for the lines the commands print (`tasks`, `inbox`,
 * `logs`), which a terminal wraps. The live view fits its lines to the window by columns
 * instead (`clip`, in columns.ts), with a module only it loads.
 */
export function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (length <= 0) return '';
  if (flat.length <= length) return flat;
  // Where every code unit is a character of its own (Latin letters without combining marks,
  // dashes, quotes), the text is cut without the segmenter.
  if (SIMPLE.test(flat)) return `${flat.slice(0, length - 1)}…`;
  const kept: string[] = [];
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(flat)) {
    kept.push(segment);
    if (kept.length > length) return `${kept.slice(0, length - 1).join('')}…`;
  }
  return flat;
}

/** `3/4 tasks`: completed of the tasks on the plan; deleted ones are off it, and counted apart. */
export function taskTally(tasks: readonly { readonly status: string }[]): string {
  const done = tasks.filter((task) => task.status === 'completed').length;
  const deleted = tasks.filter((task) => task.status === 'deleted').length;
  return `${done}/${tasks.length - deleted} tasks${deleted ? ` (${deleted} deleted)` : ''}`;
}
