import { shown } from './check-options.js';
import { TeamError } from './index.js';

// Names become file and folder names in the FileStore, so they are checked before
// they touch a path: a conservative portable set, never `.` or `..`, bounded length.
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_NAME_LENGTH = 64;

export type NameKind = 'team' | 'agent' | 'task id';

/** Returns the name when it is safe as a path segment; throws `invalid-name` otherwise. */
export function checkName(kind: NameKind, name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new TeamError('invalid-name', `A ${kind} name must be a non-empty string.`, { details: { kind } });
  }
  // Shown cut (`shown`), so a huge bad name never makes a huge error; only when it is one:
  // names are checked at every transaction.
  if (name.length > MAX_NAME_LENGTH) {
    throw new TeamError(
      'invalid-name',
      `The ${kind} name ${shown(name, 80)} is longer than ${MAX_NAME_LENGTH} characters.`,
      {
        details: { kind, name },
      },
    );
  }
  if (!NAME_PATTERN.test(name) || name.endsWith('.tmp')) {
    throw new TeamError(
      'invalid-name',
      `The ${kind} name ${shown(name, 80)} is not allowed: use letters, digits, '.', '_' and '-', starting with a letter or digit.`,
      { details: { kind, name } },
    );
  }
  return name;
}
