import { countTokens, cutToTokens, fitsTokens } from '../prompt/tokens.js';

/** Tokens kept for the `success: true` the answer is wrapped in. */
const WRAPPER = 20;
/** Strings cut at most, one after another, before the answer is cut whole. */
const CUTS = 20;

type Path = readonly (string | number)[];

/** The longest string in `value` and where it is. */
function longest(value: unknown, path: Path = []): { path: Path; text: string } | undefined {
  if (typeof value === 'string') return { path, text: value };
  if (typeof value !== 'object' || value === null) return undefined;
  let best: { path: Path; text: string } | undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = longest(inner, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found && (!best || found.text.length > best.text.length)) best = found;
  }
  return best;
}

function setAt(value: unknown, path: Path, text: string): void {
  let at = value as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = text;
}

/**
 * A tool's answer within `budget` o200k tokens: when it is longer, its longest texts are cut
 * (each with a note saying so; `hint(field)` tells where the rest is), and as a last resort
 * the answer is given as its cut JSON text.
 */
export function fitAnswer(
  answer: Record<string, unknown>,
  budget: number,
  hint: (field: string) => string = () => 'the whole is in the store',
): Record<string, unknown> {
  const target = budget - WRAPPER;
  if (fitsTokens(JSON.stringify(answer), target)) return answer;
  const copy = structuredClone(answer);
  for (let cuts = 0; cuts < CUTS; cuts++) {
    const over = countTokens(JSON.stringify(copy)) - target;
    if (over <= 0) return copy;
    const found = longest(copy);
    if (!found || found.text.length < 20) break;
    const field = String(found.path[found.path.length - 1]);
    const keep = Math.max(0, countTokens(found.text) - over - 40);
    setAt(copy, found.path, cutToTokens(found.text, keep, hint(field)));
  }
  if (fitsTokens(JSON.stringify(copy), target)) return copy;
  return { cut: cutToTokens(JSON.stringify(answer), target - 10, 'the answer was too long to give whole') };
}
