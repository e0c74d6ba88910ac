import { createRequire } from 'node:module';

// Prompts are bounded in o200k tokens (gpt-4o and later), counted with gpt-tokenizer.
// Its tables take ~140 ms to load, so they are loaded on first need, synchronously (a
// prompt is built inside a store's transaction), never when the package is imported: a
// command that builds no prompt does not pay for them. Text of at most `max` UTF-8 bytes
// needs no count at all: a byte-level BPE token covers at least one byte, so a text has
// no more tokens than bytes. Counting 24,000 tokens of text takes 2–25 ms (docs/benchmarks.md).

interface Encoding {
  encode(text: string, options: { disallowedSpecial: Set<string> }): number[];
  decode(tokens: readonly number[]): string;
}

let encoding: Encoding | undefined;

function o200k(): Encoding {
  encoding ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return encoding;
}

// Text that looks like a special token (`<|endoftext|>`) is counted as the text it is.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The o200k tokens of `text`. */
export function countTokens(text: string): number {
  return o200k().encode(text, AS_TEXT).length;
}

/** Whether `text` takes at most `max` o200k tokens (cheap for short text). */
export function fitsTokens(text: string, max: number): boolean {
  if (Buffer.byteLength(text) <= max) return true;
  return countTokens(text) <= max;
}

/** The longest start of `text` that takes at most `max` o200k tokens. */
export function prefixWithin(text: string, max: number): string {
  if (fitsTokens(text, max)) return text;
  const tokens = o200k().encode(text, AS_TEXT);
  // A cut can re-tokenise into a token or two more than it was: shrink until it fits.
  for (let keep = max; ; keep = Math.floor(keep * 0.9)) {
    const decoded = o200k().decode(tokens.slice(0, keep));
    // A token that ends inside a character decodes to a replacement mark: that character is left out.
    const kept = text.startsWith(decoded) ? decoded : text.slice(0, Math.max(0, decoded.length - 1));
    if (keep === 0 || countTokens(kept) <= max) return keep === 0 ? '' : kept;
  }
}

/**
 * `text` cut to at most `max` o200k tokens, with a marked note saying how much was cut and
 * where the whole is (`whole`, e.g. "get_task gives the rest").
 */
export function cutToTokens(text: string, max: number, whole = 'the whole is in the store'): string {
  if (fitsTokens(text, max)) return text;
  const note = (left: number) => `\n[cut: ${left} more characters; ${whole}]`;
  const room = max - countTokens(note(text.length));
  if (room <= 0) return prefixWithin(note(text.length).trim(), max);
  for (let keep = room; ; keep = Math.floor(keep * 0.9)) {
    const kept = prefixWithin(text, keep);
    const cut = `${kept}${note(text.length - kept.length)}`;
    if (keep === 0 || countTokens(cut) <= max) return cut;
  }
}
