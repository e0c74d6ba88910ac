import fc from 'fast-check';
import { expect, test } from 'vitest';
import { checkPattern, matchesGlob } from '../../src/requests/glob.js';

/**
 * The documented semantics read straight off the pattern, memoised so it stays small-input
 * fast: `**\/` is nothing or anything ending with `/`, `**` anything, `*` anything without
 * `/`, `?` one character but `/`, every other character itself.
 */
function reference(file: string, pattern: string): boolean {
  const memo = new Map<string, boolean>();
  const match = (at: number, from: number): boolean => {
    const key = `${at},${from}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const rest = [...Array(file.length - from + 1).keys()].map((skip) => from + skip);
    if (at === pattern.length) result = from === file.length;
    else if (pattern.startsWith('**/', at))
      result = match(at + 3, from) || rest.some((end) => file[end] === '/' && match(at + 3, end + 1));
    else if (pattern.startsWith('**', at)) result = rest.some((end) => match(at + 2, end));
    else if (pattern[at] === '*')
      result = match(at + 1, from) || (from < file.length && file[from] !== '/' && match(at, from + 1));
    else if (pattern[at] === '?')
      result = from < file.length && file[from] !== '/' && match(at + 1, from + 1);
    else result = file[from] === pattern[at] && match(at + 1, from + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** The backtracking RegExp the matcher replaced: same answers, on inputs small enough for it. */
function formerRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*' && pattern[index + 1] === '*') {
      index++;
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

test.each([
  // `*` within one folder
  ['*.ts', 'a.ts', true],
  ['*.ts', '.ts', true],
  ['*.ts', 'src/a.ts', false],
  ['src/*', 'src/a.ts', true],
  ['src/*', 'src/x/a.ts', false],
  ['src/*', 'src', false],
  ['src/*.ts', 'src/a.tsx', false],
  // `**` across folders: src/** is everything under src
  ['src/**', 'src/a.ts', true],
  ['src/**', 'src/x/y/a.ts', true],
  ['src/**', 'src', false],
  ['src/**', 'srcx/a.ts', false],
  ['**', 'a', true],
  ['**', 'a/b/c', true],
  ['**.ts', 'a/b.ts', true],
  ['a**b', 'a/x/b', true],
  // `**/` also matches no folder
  ['src/**/a.ts', 'src/a.ts', true],
  ['src/**/a.ts', 'src/x/a.ts', true],
  ['src/**/a.ts', 'src/x/y/a.ts', true],
  ['src/**/a.ts', 'src/xa.ts', false],
  ['src/**/a.ts', 'src/x/b.ts', false],
  ['**/a.ts', 'a.ts', true],
  ['**/a.ts', 'x/y/a.ts', true],
  ['**/*.ts', 'x/y/a.ts', true],
  ['**/*.ts', 'x/y/a.js', false],
  // `?` one character, not `/`
  ['a?c', 'abc', true],
  ['a?c', 'ac', false],
  ['a?c', 'abbc', false],
  ['a?c', 'a/c', false],
  // nothing else is special
  ['[ab].ts', '[ab].ts', true],
  ['[ab].ts', 'a.ts', false],
  ['{a,b}.ts', 'a.ts', false],
  ['{a,b}.ts', '{a,b}.ts', true],
  ['a.ts', 'abts', false],
  ['a+b(c)|^$\\', 'a+b(c)|^$\\', true],
  ['!a', 'b', false],
  ['A.ts', 'a.ts', false],
  ['src/a.ts', 'src/a.ts', true],
  ['src/a.ts', 'src/a.tsx', false],
])('%s on %s: %s', (pattern, file, expected) => {
  expect(matchesGlob(file, pattern)).toBe(expected);
  expect(reference(file, pattern)).toBe(expected);
});

test('on random small patterns and paths, the matcher answers as the reference and the former RegExp', () => {
  const pattern = fc
    .array(fc.constantFrom('a', 'b', '/', '*', '?', '**', '**/'), { maxLength: 8 })
    .map((parts) => parts.join(''));
  const file = fc.array(fc.constantFrom('a', 'b', '/'), { maxLength: 10 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(pattern, file, (pattern, file) => {
      const expected = reference(file, pattern);
      expect(matchesGlob(file, pattern)).toBe(expected);
      expect(formerRegExp(pattern).test(file)).toBe(expected);
    }),
    { numRuns: 5_000 },
  );
});

// Each takes (tokens + 1) × (path length + 1) steps at most: under 3 × 10⁶ for the largest
// here (a 500-character pattern on a 4,096-character path), milliseconds. A backtracking
// matcher takes seconds to years on them: the tests' time limit is the backstop (no clock is
// read, so a loaded machine cannot fail them).
const BACKSTOP_MS = 10_000;
const hostile: [string, string][] = [
  ['*a*a*a*a*a*b', 'a'.repeat(100)],
  ['*a*a*a*a*a*b', 'a'.repeat(1_000)],
  ['*a*a*a*a*a*a*a*a*b', 'a'.repeat(100)],
  ['*a*a*a*a*a*a*a*a*b', 'a'.repeat(1_000)],
  ['**a**a**a**a**a**a**a**a**b', 'a/'.repeat(500)],
  [`${'?*'.repeat(249)}/`, 'a'.repeat(1_000)],
  [`${'*a'.repeat(249)}b`, 'a'.repeat(4_096)],
  [`${'**/'.repeat(166)}b`, 'a/'.repeat(500)],
  [`${'**/'.repeat(166)}b`, `${'a/'.repeat(2_047)}c`],
  [`${'**/*/'.repeat(99)}b`, 'a/'.repeat(500)],
  [`${'*'.repeat(499)}b`, `${'a'.repeat(999)}/`],
];

test.each(hostile.map(([pattern, file]) => [pattern.slice(0, 30), file.length, pattern, file]))(
  'a hostile pattern (%s…) on a %i-character path is answered, without backtracking',
  (_shown, _length, pattern, file) => {
    expect(pattern.length).toBeLessThanOrEqual(500);
    expect(matchesGlob(file, pattern)).toBe(false);
  },
  BACKSTOP_MS,
);

test('the same hostile patterns do match the paths they can match, as promptly', {
  timeout: BACKSTOP_MS,
}, () => {
  const cases: [string, string][] = [
    ['*a*a*a*a*a*a*a*a*', 'a'.repeat(1_000)],
    [`${'**/'.repeat(166)}a`, `${'b/'.repeat(500)}a`],
    [`${'*a'.repeat(249)}*`, 'a'.repeat(4_096)],
  ];
  for (const [pattern, file] of cases) expect(matchesGlob(file, pattern)).toBe(true);
});

test('checkPattern refuses what is not a relative pattern of ≤500 characters', () => {
  expect(checkPattern('x', 'src/**')).toBe('src/**');
  expect(checkPattern('x', 'a'.repeat(500))).toHaveLength(500);
  for (const bad of ['', 'a'.repeat(501), '/etc/*', 'C:/x', 'src/../..', '..\\x', 3]) {
    expect(() => checkPattern('list_files', bad)).toThrow(
      expect.objectContaining({ name: 'TeamError', code: 'invalid-input' }),
    );
  }
});
