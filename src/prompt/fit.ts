import { countTokens, cutToTokens, fitsTokens } from './tokens.js';

/** Tokens kept for the line that says how many items were left out. */
const MORE_LINE = 60;

/**
 * As many of `items` as fit in `room` o200k tokens, in order, joined by `separator`, then
 * `more(left)` when some were left out. An item too long to fit alone is cut (`whole` says
 * where the rest is). The joined text is checked whole, so the bound holds exactly.
 */
export function fitItems(
  items: readonly string[],
  room: number,
  more: (left: number) => string,
  options: { separator?: string; whole?: string } = {},
): string {
  const separator = options.separator ?? '\n';
  const all = items.join(separator);
  if (fitsTokens(all, room)) return all;
  const shown: string[] = [];
  let used = 0;
  const space = room - MORE_LINE;
  for (const item of items) {
    const size = countTokens(item) + 1;
    if (used + size <= space) {
      shown.push(item);
      used += size;
    } else if (shown.length === 0 && space > 20) {
      shown.push(cutToTokens(item, space - 1, options.whole));
      break;
    } else break;
  }
  for (;;) {
    const left = items.length - shown.length;
    const text = [...shown, ...(left > 0 ? [more(left)] : [])].join(separator);
    if (fitsTokens(text, room) || shown.length === 0) return cutToTokens(text, room, options.whole);
    shown.pop();
  }
}
