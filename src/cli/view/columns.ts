import stringWidth from 'string-width';

// The live view fits its lines to the terminal's window: it measures text as the terminal
// draws it. Only the view loads this (and string-width): the commands that print a store's
// state start without it.

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

/** The rows a line takes in a window `width` columns wide (a longer one wraps). */
export function rowsOf(line: string, width: number): number {
  return Math.max(1, Math.ceil(stringWidth(line) / Math.max(1, width)));
}
