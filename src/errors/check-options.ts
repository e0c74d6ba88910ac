import { TeamError } from './team-error.js';

// The messages of option errors, written once: the zod schemas (`options-schema.ts`) and the
// few checks kept by hand (the FileStore's, on the start of every inspection command, which
// must not load zod) name an option, what it must be and the known ones alike.

/**
 * A value as an error message shows it: JSON, cut to `max` characters, so that a huge
 * bad input never makes a huge error (a model reads every error it causes).
 */
export function shown(value: unknown, max = 60): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  } catch {
    text = typeof value;
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Throws `invalid-input` when `value` has an own key that is not in `known`, naming the
 * first one and listing the known ones: a typo in a field of data a caller passed (a new
 * task, an answer) is an error, never silently ignored. Options use `checkOptionKeys`.
 *
 * @example
 * checkKnownKeys('a new task', input, ['title', 'description']);
 * // TeamError: Unknown option "tilte" for a new task; the known ones are title, description.
 */
export function checkKnownKeys(what: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    throw new TeamError(
      'invalid-input',
      `Unknown option ${shown(key)} for ${what}; the known ones are ${known.join(', ')}.`,
      { details: { option: key, known } },
    );
  }
}

/** Where an option is in its options object. */
export type OptionPath = readonly PropertyKey[];

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * An option's path as messages and `details.option` name it: `budget.maxTokens`,
 * `permissions.allowedPaths[2].tool`, `pricing["gpt-4o"]`; `''` for the options object itself.
 */
export function optionPath(path: OptionPath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && IDENTIFIER.test(key)) text += text ? `.${key}` : key;
    else text += `[${shown(String(key))}]`;
  }
  return text;
}

/** `path` of `what` (`lock of a FileStore`), or `what` itself for the options object. */
function within(what: string, path: OptionPath): string {
  return path.length === 0 ? what : `${optionPath(path)} of ${what}`;
}

/**
 * The `invalid-option` error for a key `what` does not have at `path`, listing the ones it
 * has: `Unknown option "maxTask" for the team newsroom; the known ones are name, lead, …`.
 */
export function unknownOption(
  what: string,
  path: OptionPath,
  key: string,
  known: readonly string[] | undefined,
): TeamError {
  const knownOnes = known ? `; the known ones are ${known.join(', ')}` : '';
  return new TeamError(
    'invalid-option',
    `Unknown option ${shown(key)} for ${within(what, path)}${knownOnes}.`,
    {
      details: { option: optionPath([...path, key]), ...(known ? { known } : {}) },
    },
  );
}

/**
 * The `invalid-option` error for an option that is not what it must be. `expected` is a
 * phrase (`a whole number of at least 1`), so every message reads alike:
 * `maxIterations of the agent a must be a whole number of at least 1, not 0.`
 */
export function badOption(what: string, path: OptionPath, expected: string, value: unknown): TeamError {
  const option = optionPath(path);
  const message =
    path.length === 0
      ? `The options of ${what} must be ${expected}, not ${shown(value)}.`
      : value === undefined
        ? `${option} of ${what} is missing: it must be ${expected}.`
        : `${option} of ${what} must be ${expected}, not ${shown(value)}.`;
  return new TeamError('invalid-option', message, { details: { option } });
}

/**
 * A check written by hand, where loading zod would cost more than the check (see
 * `options-schema.ts` for the rest): throws `unknownOption` for the first key of `value`
 * that is not in `known`.
 */
export function checkOptionKeys(
  what: string,
  value: object,
  known: readonly string[],
  path: OptionPath = [],
): void {
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) throw unknownOption(what, path, unknown, known);
}

/**
 * The longest time an option in ms may give: 2,147,483,647 ms (2³¹ − 1, about 24.8 days), the
 * longest wait Node's timers take. Every option in ms is checked against it.
 */
export const MAX_MS = 2 ** 31 - 1;

/** What an option in ms must be, as its error says it. */
export const MILLISECONDS = 'a whole number of ms from 1 to 2147483647 (about 24.8 days)';

/** Whether `value` is a whole number of ms an option may give (1 to `MAX_MS`). */
export const isMilliseconds = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_MS;
