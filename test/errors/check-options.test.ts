import { expect, test } from 'vitest';
import { checkKnownKeys, shown } from '../../src/errors/check-options.js';

test('an unknown key is an error naming it and listing the known ones', () => {
  expect(() => checkKnownKeys('the thing', { a: 1, typo: 2 }, ['a', 'b'])).toThrow(
    expect.objectContaining({
      code: 'invalid-input',
      message: 'Unknown option "typo" for the thing; the known ones are a, b.',
    }),
  );
  expect(() => checkKnownKeys('the thing', { a: 1, b: undefined }, ['a', 'b'])).not.toThrow();
});

test('a huge unknown key is shown cut, so the error stays short', () => {
  const error = (() => {
    try {
      checkKnownKeys('the thing', { ['k'.repeat(100_000)]: 1 }, ['a']);
    } catch (caught) {
      return caught as Error;
    }
  })();
  expect(error?.message.length).toBeLessThan(150);
  expect(shown('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
});
