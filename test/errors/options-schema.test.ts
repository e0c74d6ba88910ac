import { expect, test } from 'vitest';
import { z } from 'zod';
import { isTeamError } from '../../src/errors/index.js';
import { fn, milliseconds, parseOptions, wholeNumber } from '../../src/errors/options-schema.js';

const schema = z.strictObject({
  name: z.string(),
  retries: wholeNumber(0).optional(),
  timeoutMs: milliseconds().optional(),
  mode: z.enum(['fast', 'careful']).optional(),
  verbose: z.boolean().optional(),
  onEnd: fn<() => void>('a function called at the end').optional(),
  budget: z
    .strictObject({ maxTokens: z.number().positive().optional(), maxCostUsd: z.number().optional() })
    .optional(),
  permissions: z
    .strictObject({
      allowedPaths: z.array(z.strictObject({ path: z.string(), tool: z.enum(['write_file', '*']) })),
    })
    .optional(),
  pricing: z.record(z.string(), z.strictObject({ input: z.number() })).optional(),
});

/** The TeamError `parseOptions` throws for `value`. */
function refusal(value: unknown) {
  try {
    parseOptions(schema, value, 'the thing t');
  } catch (error) {
    if (isTeamError(error, 'invalid-option')) return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error('accepted');
}

test('good options are answered as parsed', () => {
  const onEnd = () => {};
  expect(parseOptions(schema, { name: 'n', retries: 0, mode: 'fast', onEnd }, 'the thing t')).toEqual({
    name: 'n',
    retries: 0,
    mode: 'fast',
    onEnd,
  });
});

test('an unknown key is named, with the known ones, before any bad value', () => {
  expect(refusal({ name: 'n', retires: 3, mode: 'slow' })).toEqual({
    message:
      'Unknown option "retires" for the thing t; the known ones are name, retries, timeoutMs, mode, verbose, onEnd, budget, permissions, pricing.',
    details: {
      option: 'retires',
      known: ['name', 'retries', 'timeoutMs', 'mode', 'verbose', 'onEnd', 'budget', 'permissions', 'pricing'],
    },
  });
});

test('an unknown key inside a nested object is named by its path, with the known ones there', () => {
  expect(refusal({ name: 'n', budget: { maxTurns: 3 } })).toEqual({
    message: 'Unknown option "maxTurns" for budget of the thing t; the known ones are maxTokens, maxCostUsd.',
    details: { option: 'budget.maxTurns', known: ['maxTokens', 'maxCostUsd'] },
  });
  expect(
    refusal({
      name: 'n',
      permissions: {
        allowedPaths: [
          { path: 'a', tool: '*' },
          { path: 'b', tool: '*', why: 1 },
        ],
      },
    }),
  ).toEqual({
    message:
      'Unknown option "why" for permissions.allowedPaths[1] of the thing t; the known ones are path, tool.',
    details: { option: 'permissions.allowedPaths[1].why', known: ['path', 'tool'] },
  });
  expect(refusal({ name: 'n', pricing: { 'gpt-4o': { input: 1, output: 2 } } })).toMatchObject({
    message: 'Unknown option "output" for pricing["gpt-4o"] of the thing t; the known ones are input.',
  });
});

test('a bad value is named by its path, with what it must be and what it is', () => {
  expect(refusal({ name: 'n', retries: 1.5 })).toEqual({
    message: 'retries of the thing t must be a whole number of at least 0, not 1.5.',
    details: { option: 'retries' },
  });
  expect(refusal({ name: 'n', timeoutMs: 0 }).message).toBe(
    'timeoutMs of the thing t must be a whole number of ms from 1 to 2147483647 (about 24.8 days), not 0.',
  );
  expect(refusal({ name: 'n', mode: 'slow' }).message).toBe(
    'mode of the thing t must be one of "fast", "careful", not "slow".',
  );
  expect(refusal({ name: 'n', verbose: 'yes' }).message).toBe(
    'verbose of the thing t must be true or false, not "yes".',
  );
  expect(refusal({ name: 'n', onEnd: 'later' }).message).toBe(
    'onEnd of the thing t must be a function called at the end, not "later".',
  );
  expect(refusal({ name: 'n', budget: { maxTokens: -1 } })).toEqual({
    message: 'budget.maxTokens of the thing t must be above 0, not -1.',
    details: { option: 'budget.maxTokens' },
  });
  expect(refusal({ name: 'n', permissions: { allowedPaths: [{ path: 'a', tool: 'rm' }] } })).toEqual({
    message: 'permissions.allowedPaths[0].tool of the thing t must be one of "write_file", "*", not "rm".',
    details: { option: 'permissions.allowedPaths[0].tool' },
  });
});

test('a nested object of the wrong type shows the keys it takes', () => {
  expect(refusal({ name: 'n', budget: 5 }).message).toBe(
    'budget of the thing t must be an object: { maxTokens?, maxCostUsd? }, not 5.',
  );
  expect(refusal('fast')).toEqual({
    message:
      'The options of the thing t must be an object: { name, retries?, timeoutMs?, mode?, verbose?, onEnd?, budget?, permissions?, pricing? }, not "fast".',
    details: { option: '' },
  });
});

test('a missing option is said to be missing, with what it must be', () => {
  expect(refusal({ retries: 1 })).toEqual({
    message: 'name of the thing t is missing: it must be a string.',
    details: { option: 'name' },
  });
});

test('a huge bad value is shown cut, so the error stays short', () => {
  expect(refusal({ name: 'n', mode: 'x'.repeat(100_000) }).message.length).toBeLessThan(150);
});
