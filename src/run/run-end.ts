import { isTeamError, TeamError } from '../errors/index.js';
import type { TeamRunResult } from '../team/run-result.js';
import { describeError } from '../turn/turn-outcome.js';
import type { RunState } from './run-state.js';

/** Why the loop stopped the run before its end, if it did. */
export type Stopping = { readonly reason: 'aborted' | 'failed'; readonly error?: unknown } | null;

/** What failed, as `team:complete` says it: the agent and its error, or the store's. */
export function failureText(state: RunState, error: unknown): string {
  const failure = state.failure;
  return failure ? `${failure.agent}: ${failure.error}` : `store: ${describeError(error)}`;
}

/**
 * The run's end for whoever awaits it: its result, or the error that failed it (an agent's
 * failure as `agent-failed`; a hook's or the store's as it was thrown).
 */
export function settleRun(state: RunState, stopping: Stopping, result: TeamRunResult): TeamRunResult {
  if (stopping?.reason !== 'failed') return result;
  const failure = state.failure;
  if (!failure || isTeamError(stopping.error, 'hook-failed')) throw stopping.error;
  throw new TeamError('agent-failed', `The agent ${failure.agent} failed: ${failure.error}`, {
    cause: stopping.error,
    details: { agent: failure.agent, result },
  });
}
