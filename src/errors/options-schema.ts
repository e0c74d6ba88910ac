import { z } from 'zod';
import { badOption, MAX_MS, MILLISECONDS, type OptionPath, shown, unknownOption } from './check-options.js';
import type { TeamError } from './team-error.js';

// The one way options are declared and checked: a zod schema beside each options interface,
// strict objects so an unknown key is refused, parsed by `parseOptions`. A schema states what
// each option must be as a phrase (`a whole number of at least 1`) in its `error`; the common
// types have theirs here (`true or false`, `a string`, `one of "a", "b"`). A strict object is
// left without an `error` of its own: its keys are read from it to list the known ones.

type Issue = z.core.$ZodRawIssue;

/** The known keys of the strict object that raised an issue, with `?` on the optional ones. */
function keysOf(issue: Issue): { readonly keys: string[]; readonly shown: string } | undefined {
  const def = issue.inst?._zod.def as { shape?: Record<string, z.core.$ZodType> } | undefined;
  if (!def?.shape) return undefined;
  const keys = Object.keys(def.shape);
  const marked = keys.map((key) => (def.shape?.[key]?._zod.optin === 'optional' ? `${key}?` : key));
  return { keys, shown: `{ ${marked.join(', ')} }` };
}

const TYPES: Readonly<Record<string, string>> = {
  boolean: 'true or false',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  function: 'a function',
  array: 'a list',
  record: 'an object',
};

/** What a value must be, for an issue whose schema did not say it itself. */
function expectation(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'object') {
        const keys = keysOf(issue);
        return keys ? `an object: ${keys.shown}` : 'an object';
      }
      return TYPES[issue.expected] ?? `a ${issue.expected}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? shown(issue.values[0])
        : `one of ${issue.values.map((value) => shown(value)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'a non-empty string';
      if (issue.origin === 'array' && Number(issue.minimum) === 1) return 'a list of at least one';
      return `${issue.inclusive ? 'at least' : 'above'} ${issue.minimum}`;
    case 'too_big':
      return `${issue.inclusive ? 'at most' : 'below'} ${issue.maximum}`;
    default:
      return 'valid';
  }
}

/** The value at `path` inside `value`, to show what was given. */
function valueAt(value: unknown, path: OptionPath): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * Checks `value` with an options schema and answers what it parsed. A failure is a
 * `TeamError` `invalid-option` naming the option by its path, what it must be and what it
 * is, or for an unknown key the known ones; an unknown key is named before a bad value, as
 * a typo explains the rest. `what` names whose options they are: `the team newsroom`.
 *
 * @example
 * parseOptions(z.strictObject({ budget: z.strictObject({ maxTokens: z.number() }) }), config, 'the team t');
 * // TeamError: budget.maxTokens of the team t must be a number, not "many".
 * // TeamError: Unknown option "maxTurns" for budget of the team t; the known ones are maxTokens.
 */
export function parseOptions<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  // The known keys of each strict object that refused a key, by its path.
  const known = new Map<string, string[]>();
  const result = schema.safeParse(value, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        known.set(JSON.stringify(issue.path ?? []), keysOf(issue)?.keys ?? []);
      }
      return expectation(issue);
    },
  });
  if (result.success) return result.data;
  throw optionError(result.error.issues, value, what, known);
}

function optionError(
  issues: readonly z.core.$ZodIssue[],
  value: unknown,
  what: string,
  known: ReadonlyMap<string, string[]>,
): TeamError {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown?.code === 'unrecognized_keys') {
    const keys = known.get(JSON.stringify(unknown.path));
    return unknownOption(what, unknown.path, unknown.keys[0] ?? '', keys?.length ? keys : undefined);
  }
  const [issue] = issues as [z.core.$ZodIssue];
  return badOption(what, issue.path, issue.message, valueAt(value, issue.path));
}

/** A whole number of at least `least` (and at most `most`), said so whichever way it fails. */
export function wholeNumber(least: number, most?: number) {
  const error =
    most === undefined ? `a whole number of at least ${least}` : `a whole number from ${least} to ${most}`;
  const schema = z.int({ error }).min(least, { error });
  return most === undefined ? schema : schema.max(most, { error });
}

/** A whole number of ms, 1 to `MAX_MS` (see check-options.ts), said so whichever way it fails. */
export function milliseconds() {
  return z.int({ error: MILLISECONDS }).min(1, { error: MILLISECONDS }).max(MAX_MS, { error: MILLISECONDS });
}

/** A value `is` accepts, described by `error` (a function, an Agent, a PostgresStore). */
export function satisfying<T>(is: (value: unknown) => boolean, error: string) {
  return z.custom<T>(is, { error });
}

/** An object that is not a list (what it holds said by `error`), its entries left to the caller. */
export function plainObject<T>(error: string) {
  return satisfying<T>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    error,
  );
}

/** A function (what it is for said by `error`). */
export function fn<T extends (...args: never[]) => unknown>(error: string) {
  return satisfying<T>((value) => typeof value === 'function', error);
}
