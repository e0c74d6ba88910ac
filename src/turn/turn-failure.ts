import { isTeamError, TeamError } from '../errors/index.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { describeError, type TurnOutcome } from './turn-outcome.js';

/** How a turn that threw ended: aborted by the run, failed by a hook, timed out, or failed. */
export function thrownOutcome(
  error: unknown,
  turn: TurnDescriptor,
  how: {
    readonly aborted: boolean;
    readonly timedOut: boolean;
    readonly timeoutMs: number;
    /** What a hook threw inside a tool, which stopped the turn. */
    readonly hookFailure: unknown;
    readonly delivered: readonly string[];
    readonly unread: readonly string[];
  },
): TurnOutcome {
  if (how.aborted) return { kind: 'aborted' };
  const { delivered, unread } = how;
  const hook = how.hookFailure ?? (isTeamError(error, 'hook-failed') ? error : undefined);
  if (hook !== undefined)
    return { kind: 'failed', error: describeError(hook), delivered, unread, cause: hook, fatal: true };
  if (how.timedOut) {
    const reason = `The turn of ${turn.agent} took longer than ${how.timeoutMs} ms (turnTimeoutMs) and was stopped.`;
    return { kind: 'failed', error: reason, delivered, unread, cause: new TeamError('turn-timeout', reason) };
  }
  return { kind: 'failed', error: describeError(error), delivered, unread, cause: error };
}
