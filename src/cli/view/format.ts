import stringWidth from 'string-width';
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

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * On one line, cut to `width` terminal columns, with an ellipsis: measured as the terminal
 * draws it (`string-width`: a CJK character or an emoji takes two columns, a combining mark none).
 */
export function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (width <= 0) return '';
  if (stringWidth(flat) <= width) return flat;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(flat)) {
    const size = stringWidth(segment);
    if (used + size > width - 1) break;
    kept += segment;
    used += size;
  }
  return `${kept}…`;
}

/** `clip`ped, then filled with spaces to exactly `width` columns. */
export function pad(text: string, width: number): string {
  const clipped = clip(text, width);
  return clipped + ' '.repeat(Math.max(0, width - stringWidth(clipped)));
}

/** `3/4 tasks`: completed of the tasks on the plan; deleted ones are off it, and counted apart. */
export function taskTally(tasks: readonly { readonly status: string }[]): string {
  const done = tasks.filter((task) => task.status === 'completed').length;
  const deleted = tasks.filter((task) => task.status === 'deleted').length;
  return `${done}/${tasks.length - deleted} tasks${deleted ? ` (${deleted} deleted)` : ''}`;
}
