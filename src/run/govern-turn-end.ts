import type { Agent } from '../agent/agent.js';
import { askedInTurn, inPlanPhase, isWaiting } from '../fold/request-queries.js';
import type { RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { RequestDraft } from '../requests/team-requests.js';
import { planSubject } from '../tools/plan-tools.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';

/** What governance adds to a turn's end: whether its agent now waits, and a plan to open. */
export interface GovernedTurnEnd {
  readonly waiting: boolean;
  /** The plan request the harness opens for a member that replied with its plan in words. */
  readonly plan: RequestDraft | null;
}

/**
 * A turn's end as governance sees it, from the run state folded up to the end (`definition`:
 * the member's, which says whether it plans first): an agent that
 * opened a request waits (its task stays held, nobody replies for it). A member in its plan
 * phase that ended without `submit_plan` but with a reply has the reply submitted as its plan,
 * like the harness completes a task with a reply: a model that never calls tools still works.
 */
export function governTurnEnd(
  state: RunState,
  turn: TurnDescriptor,
  outcome: TurnOutcome,
  definition: Agent | undefined,
): GovernedTurnEnd {
  // A turn that asked (a request, or a question) ends waiting for the answer, even one that
  // came before the turn ended: when the answer lands must not change what the harness does
  // with the turn (its task is kept, never completed with an interim reply).
  const asked = askedInTurn(state, turn) || state.agents.get(turn.agent)?.questionTurn === turn.turn;
  if (isWaiting(state, turn.agent) || asked) return { waiting: true, plan: null };
  const agent = turn.role === 'member' ? definition : undefined;
  if (outcome.kind !== 'done' || !outcome.text || !agent || turn.taskId === null) {
    return { waiting: false, plan: null };
  }
  if (!inPlanPhase(state.governance, agent, turn)) return { waiting: false, plan: null };
  const plan: RequestDraft = {
    kind: 'plan',
    to: 'lead',
    subject: planSubject(turn.taskId, outcome.text),
    taskId: turn.taskId,
    tool: null,
    path: null,
  };
  return { waiting: true, plan };
}
