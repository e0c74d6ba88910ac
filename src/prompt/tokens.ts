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

// BPE on one long run without spaces (CJK text, some data) takes time that grows with the
// square of the run: 8,000 CJK characters took 3.4 s whole. Text is counted in pieces of at
// most PIECE characters instead, cut at a space where there is one (where the tokeniser cuts
// anyway, so prose counts exactly) and else inside the run: a cut there can only keep tokens
// from merging, so the count stays a bound. 20,000 CJK characters then take ~140 ms.
const PIECE = 256;

/** Where the piece starting at `start` ends. */
function pieceEnd(text: string, start: number): number {
  const end = start + PIECE;
  if (end >= text.length) return text.length;
  for (let at = end; at > start + PIECE / 2; at--) if (/\s/.test(text[at] ?? '')) return at;
  // Never between the two halves of a surrogate pair.
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function* pieces(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start);
    yield text.slice(start, end);
    start = end;
  }
}

/** The o200k tokens of `text` (counted in pieces: exact for prose, at least the count otherwise). */
export function countTokens(text: string): number {
  let count = 0;
  for (const piece of pieces(text)) count += o200k().encode(piece, AS_TEXT).length;
  return count;
}

/**
 * A bound of the tokens of `text`, at least its count, for what a briefing of `room` tokens
 * spends on it: its UTF-8 bytes when they are at most an eighth of the room (so a small
 * team's briefings never load the tables, and the bound wastes little), else its count.
 */
export function tokenBound(text: string, room: number): number {
  const bytes = Buffer.byteLength(text);
  return bytes <= room / 8 ? bytes : countTokens(text);
}

/** Whether `text` takes at most `max` o200k tokens (cheap for short text). */
export function fitsTokens(text: string, max: number): boolean {
  if (Buffer.byteLength(text) <= max) return true;
  return countTokens(text) <= max;
}

/** The longest start of `piece` (a piece of text, short) that takes at most `max` tokens. */
function pieceWithin(piece: string, max: number): string {
  const tokens = o200k().encode(piece, AS_TEXT);
  // A cut can re-tokenise into a token or two more than it was: shrink until it fits.
  for (let keep = Math.min(max, tokens.length); keep > 0; keep--) {
    const decoded = o200k().decode(tokens.slice(0, keep));
    // A token that ends inside a character decodes to a replacement mark: that character is left out.
    const kept = piece.startsWith(decoded) ? decoded : piece.slice(0, Math.max(0, decoded.length - 1));
    if (o200k().encode(kept, AS_TEXT).length <= max) return kept;
  }
  return '';
}

/** The longest start of `text` that takes at most `max` o200k tokens (as `countTokens` counts). */
export function prefixWithin(text: string, max: number): string {
  if (fitsTokens(text, max)) return text;
  let used = 0;
  let offset = 0;
  for (const piece of pieces(text)) {
    const count = o200k().encode(piece, AS_TEXT).length;
    if (used + count > max) return text.slice(0, offset) + pieceWithin(piece, max - used);
    used += count;
    offset += piece.length;
  }
  return text;
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
