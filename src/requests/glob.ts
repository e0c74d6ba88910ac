import { TeamError } from '../errors/index.js';

// Globs over workspace paths (always with `/`): `*` matches within one folder, `**` across
// folders (`src/**` is everything under src; `**/` also matches no folder at all, so
// `src/**/a.ts` takes src/a.ts), `?` one character (not `/`). Nothing else is special, so a
// pattern reads the same to the person who wrote it and to the model.
//
// The model writes patterns (list_files, grant_paths), so matching must not backtrack: a
// RegExp built from `*a*a*a*a*a*a*a*a*b` held a turn for over a minute on a 100-character
// name. Here a pattern is read once into tokens, then matched by dynamic programming over
// the path: a row of booleans says which prefixes of the path the tokens read so far can
// match, and each token turns the row into the next in one pass. The cost of a match is
// therefore at most (tokens + 1) × (path length + 1) steps, whatever the pattern, with a
// pattern of ≤500 characters (checkPattern) and no state kept between calls. (Unlike the
// former RegExp, whose `.` stopped at a newline, `**` crosses every character.)

/** `*`: any run of characters within one folder. */
const STAR = -1;
/** `**` not followed by `/`: any run of characters, `/` included. */
const ANY = -2;
/** `**\/`: nothing, or any run of characters that ends with `/`. */
const FOLDERS = -3;
/** `?`: one character, not `/`. */
const ONE = -4;
const SLASH = 0x2f;

/** The pattern's tokens: a wildcard above, or a literal as its UTF-16 code unit (≥ 0). */
function tokensOf(pattern: string): number[] {
  const tokens: number[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '*' && pattern[index + 1] === '*') {
      index++;
      if (pattern[index + 1] === '/') {
        index++;
        tokens.push(FOLDERS);
      } else tokens.push(ANY);
    } else if (char === '*') tokens.push(STAR);
    else if (char === '?') tokens.push(ONE);
    else tokens.push(pattern.charCodeAt(index));
  }
  return tokens;
}

/** Whether the workspace path `file` (relative, with `/`) matches `pattern`. */
export function matchesGlob(file: string, pattern: string): boolean {
  const length = file.length;
  // row[end]: the tokens read so far match file.slice(0, end).
  let row = new Uint8Array(length + 1);
  let next = new Uint8Array(length + 1);
  row[0] = 1;
  for (const token of tokensOf(pattern)) {
    next.fill(0);
    let alive = 0;
    if (token === STAR) {
      for (let end = 0; end <= length; end++) {
        const grown = end > 0 && next[end - 1] === 1 && file.charCodeAt(end - 1) !== SLASH;
        next[end] = row[end] === 1 || grown ? 1 : 0;
        alive |= next[end] as number;
      }
    } else if (token === ANY) {
      // Any end at or after a matched one.
      for (let end = 0; end <= length; end++) {
        alive |= row[end] as number;
        next[end] = alive;
      }
    } else if (token === FOLDERS) {
      // A matched end itself, or any end just after a `/` read at or after a matched one.
      let seen = 0;
      for (let end = 0; end <= length; end++) {
        next[end] = row[end] === 1 || (seen === 1 && file.charCodeAt(end - 1) === SLASH) ? 1 : 0;
        seen |= row[end] as number;
        alive |= next[end] as number;
      }
    } else {
      for (let end = 0; end < length; end++) {
        if (row[end] !== 1) continue;
        const code = file.charCodeAt(end);
        if (token === ONE ? code !== SLASH : code === token) {
          next[end + 1] = 1;
          alive = 1;
        }
      }
    }
    if (!alive) return false;
    [row, next] = [next, row];
  }
  return row[length] === 1;
}

/** A pattern must stay inside the workspace: relative, without `..`, of ≤500 characters. */
export function checkPattern(what: string, pattern: unknown): string {
  if (typeof pattern !== 'string' || !pattern || pattern.length > 500) {
    throw new TeamError(
      'invalid-input',
      `${what}: a path pattern must be a non-empty string of ≤500 characters.`,
    );
  }
  if (pattern.startsWith('/') || /^[A-Za-z]:/.test(pattern) || pattern.split(/[\\/]/).includes('..')) {
    throw new TeamError(
      'invalid-input',
      `${what}: the pattern ${JSON.stringify(pattern)} must be relative to the workspace root, without "..".`,
    );
  }
  return pattern;
}
