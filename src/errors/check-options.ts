import { TeamError } from './team-error.js';

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
 * first one and listing the known ones: a typo in an option (`maxTask`) or an option
 * this version does not have is an error, never silently ignored.
 *
 * @example
 * checkKnownKeys('the team newsroom', config, ['name', 'lead', 'members']);
 * // TeamError: Unknown option "maxTask" for the team newsroom; the known ones are name, lead, members.
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
