import { TeamError } from '../errors/index.js';

// Globs over workspace paths (always with `/`): `*` matches within one folder, `**` across
// folders (`src/**` is everything under src), `?` one character. Nothing else is special,
// so a pattern reads the same to the person who wrote it and to the model.

const cache = new Map<string, RegExp>();

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      index++;
      // `**/` also matches no folder at all: `src/**/a.ts` takes src/a.ts.
      if (pattern[index + 1] === '/') {
        index++;
        source += '(?:.*/)?';
      } else source += '.*';
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether the workspace path `file` (relative, with `/`) matches `pattern`. */
export function matchesGlob(file: string, pattern: string): boolean {
  let regExp = cache.get(pattern);
  if (!regExp) {
    regExp = toRegExp(pattern);
    cache.set(pattern, regExp);
  }
  return regExp.test(file);
}

/** A pattern must stay inside the workspace: relative, without `..`. */
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
