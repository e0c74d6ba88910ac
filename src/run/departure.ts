import type { Departure, RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { notifyIdle } from '../mailbox/notices.js';
import type { TeamRules } from '../store/team-store.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';

// How members leave a run, as the run's fold decides it (the commands that ask are in
// control.ts):
// - graceful: a `shutdown_request` message wakes the member; it answers in that turn with
//   `respond_to_shutdown` (approve, or reject with a reason) and, when it does not reject,
//   departs as the turn ends: a turn is never cut for it, and it cannot hang;
// - forced (and a removal): its running turn is cut, then it departs;
// - a departed member's tasks go back to the list, its unread messages stay in its inbox (the
//   archive), and the lead gets an `idle_notification` (shut down).

/** The member's turn was given its shutdown request, and it did not reject it. */
function answeredShutdown(state: RunState, turn: TurnDescriptor, outcome: TurnOutcome): boolean {
  const request = state.agents.get(turn.agent)?.shutdownRequest;
  if (!request?.messageId || outcome.kind === 'aborted') return false;
  return turn.messageIds.includes(request.messageId) || outcome.delivered.includes(request.messageId);
}

/** How the member departs as this turn ends, if it does (a departure asked for, or a shutdown it did not reject). */
export function departureAfter(
  state: RunState,
  turn: TurnDescriptor,
  outcome: TurnOutcome,
): Departure | null {
  const agent = state.agents.get(turn.agent);
  if (agent?.role !== 'member') return null;
  if (agent.departing) return agent.departing;
  if (answeredShutdown(state, turn, outcome)) {
    return { force: false, reason: agent.shutdownRequest?.reason ?? null, removed: false };
  }
  return null;
}

/** The member departs, in the caller's commit: the lead is told first (a departed member sends nothing). */
export function departIn(
  rules: TeamRules,
  member: string,
  how: Departure,
  outcome: TurnOutcome | undefined,
): void {
  const output = outcome?.kind === 'done' ? outcome.text : '';
  notifyIdle(rules.mailbox, member, 'shutdown', { output, task: undefined });
  rules.roster.depart(member, how);
}
