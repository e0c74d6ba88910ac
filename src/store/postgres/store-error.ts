import { isTeamError, TeamError } from '../../errors/index.js';

/** An error of the database (unreachable, refused) as a TeamError; the rules' own pass as they are. */
export function storeError(error: unknown): unknown {
  if (isTeamError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TeamError('store-io', `PostgreSQL: ${message}`, { cause: error });
}
