import stringWidth from 'string-width';
import { expect, test } from 'vitest';
import { clip, pad } from '../../src/cli/view/columns.js';
import { shorten } from '../../src/cli/view/format.js';
import { fitHeight } from '../../src/cli/view/terminal-view.js';

test('clip and pad measure text as the terminal draws it: wide characters take two columns', () => {
  expect(clip('東京の潮の満ち引き', 9)).toBe('東京の潮…');
  expect(stringWidth(clip('東京の潮の満ち引き', 9))).toBeLessThanOrEqual(9);
  expect(stringWidth(pad('潮 tides', 12))).toBe(12);
  expect(clip('a 🌊 wave', 20)).toBe('a 🌊 wave');
  expect(clip('one\ntwo   three', 20)).toBe('one two three');
});

test('the printed lines are shortened by characters as a person counts them, an emoji or a CJK character one', () => {
  expect(shorten('東京の潮の満ち引き', 5)).toBe('東京の潮…');
  expect(shorten('a 🌊 wave', 9)).toBe('a 🌊 wave');
  expect(shorten('a 🌊 wave and more', 9)).toBe('a 🌊 wave…');
  expect(shorten('one\ntwo   three', 20)).toBe('one two three');
  expect(shorten('abc', 0)).toBe('');
  // Latin text with accents and typographic quotes is cut at the same character either way.
  expect(shorten('The Moon’s “pull” on the café’s façade', 13)).toBe('The Moon’s “…');
  expect(shorten('Café', 3)).toBe('Ca…');
  // A combining accent belongs to its letter: the e and its accent stay together.
  expect(shorten('Cafe\u0301 au lait', 5)).toBe('Cafe\u0301…');
});

test('a board taller than the window is cut to it, saying how many lines are not shown', () => {
  const board = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
  expect(fitHeight(board, 30, 80)).toEqual(board);
  const cut = fitHeight(board, 12, 80);
  expect(cut).toHaveLength(11); // one row stays for the cursor
  expect(cut.slice(0, 10)).toEqual(board.slice(0, 10));
  expect(cut[10]).toBe('… 10 more lines (a taller window shows them)');
  // A line wider than the window wraps onto two rows, and counts so.
  expect(fitHeight(['x'.repeat(150), ...board.slice(0, 9)], 12, 100)).toHaveLength(10);
});
