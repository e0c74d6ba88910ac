import { expect, test } from 'vitest';
import {
  badOption,
  checkKnownKeys,
  checkOptionKeys,
  optionPath,
  shown,
} from '../../src/errors/check-options.js';

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

test('a check kept by hand names options as the schemas do', () => {
  expect(() =>
    checkOptionKeys('a FileStore', { lock: { retries: 3 } }.lock, ['stale', 'timeout'], ['lock']),
  ).toThrow(
    expect.objectContaining({
      code: 'invalid-option',
      message: 'Unknown option "retries" for lock of a FileStore; the known ones are stale, timeout.',
      details: { option: 'lock.retries', known: ['stale', 'timeout'] },
    }),
  );
  expect(badOption('a FileStore', ['lock', 'stale'], 'a whole number of ms, at least 1', -1)).toMatchObject({
    code: 'invalid-option',
    message: 'lock.stale of a FileStore must be a whole number of ms, at least 1, not -1.',
    details: { option: 'lock.stale' },
  });
  expect(optionPath(['pricing', 'gpt-4o', 'input'])).toBe('pricing["gpt-4o"].input');
  expect(optionPath(['permissions', 'allowedPaths', 2, 'tool'])).toBe('permissions.allowedPaths[2].tool');
});
