import type { Agent } from '../agent/agent.js';
import { needsPlan } from '../requests/request-queries.js';
import type { RequestRecord, RequestsView } from '../requests/request-state.js';
import type { OpenQuestion, RunState } from './run-state.js';
import type { TurnDescriptor } from './turn-descriptor.js';

// Questions the schedule, the loop and the tools ask of the run state about requests. Pure:
// they read the fold, so a resumed run answers them as the live one did.

/** Requests still open whose asker can still go on (a stopped or failed one never will). */
export function openRequests(state: RunState): RequestRecord[] {
  return [...state.governance.requests.values()].filter((request) => {
    if (request.status !== 'open') return false;
    const asker = state.agents.get(request.from);
    return asker?.status !== 'stopped' && asker?.status !== 'failed';
  });
}

/**
 * True while `agent` waits on a request of its own or on the answer to its question: it takes
 * no turn (and holds no slot).
 */
export function isWaiting(state: RunState, agent: string): boolean {
  if (state.agents.get(agent)?.question) return true;
  for (const request of state.governance.requests.values())
    if (request.from === agent && request.status === 'open') return true;
  return false;
}

/** The answers `agent` has not had a turn with yet (its next turn's briefing gives them). */
export function pendingAnswers(state: RunState, agent: string): RequestRecord[] {
  return [...state.governance.requests.values()].filter(
    (request) =>
      request.from === agent &&
      request.status !== 'open' &&
      !state.governance.delivery.get(request.id)?.delivered,
  );
}

/** Open requests to the lead that no turn of the lead has seen yet: they give it a turn. */
export function unseenByLead(state: RunState): RequestRecord[] {
  return openRequests(state).filter(
    (request) => request.to === 'lead' && !state.governance.delivery.get(request.id)?.shown,
  );
}

/** When the next open request expires (ms since the epoch), if any is open. */
export function nextExpiry(state: RunState): number | undefined {
  let next: number | undefined;
  for (const request of openRequests(state)) {
    const due = request.openedAt + request.timeoutMs;
    if (next === undefined || due < next) next = due;
  }
  return next;
}

/** The members' unanswered questions, with whom they asked. */
export function openQuestions(state: RunState): { member: string; question: OpenQuestion }[] {
  const open: { member: string; question: OpenQuestion }[] = [];
  for (const agent of state.agents.values()) {
    // A member out of turns (or failed) never goes on: nothing waits for its answer.
    if (!agent.question || agent.status === 'stopped' || agent.status === 'failed') continue;
    open.push({ member: agent.name, question: agent.question });
  }
  return open;
}

/** When the next unanswered question expires (ms since the epoch), if any is open. */
export function nextQuestionExpiry(state: RunState, timeoutMs: number): number | undefined {
  const times = openQuestions(state).map(({ question }) => question.askedAt + timeoutMs);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** The open requests due by `now`. */
export function dueRequests(state: RunState, now: number): RequestRecord[] {
  return openRequests(state).filter((request) => request.openedAt + request.timeoutMs <= now);
}

/** The tasks waiting members held: a resume gives each back to its member, not to the list. */
export function heldWhileWaiting(state: RunState): Map<string, string> {
  const held = new Map<string, string>();
  for (const { member, question } of openQuestions(state))
    if (question.taskId !== null) held.set(member, question.taskId);
  const waiting = new Set(openRequests(state));
  for (const request of state.governance.requests.values()) {
    const unanswered = waiting.has(request);
    const undelivered = request.status !== 'open' && !state.governance.delivery.get(request.id)?.delivered;
    if (request.taskId !== null && (unanswered || undelivered)) held.set(request.from, request.taskId);
  }
  return held;
}

/** Whether the lead can take a turn to answer: not failed or stopped, with turns left. */
function leadCanAnswer(state: RunState, maxLeadTurns: number): boolean {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  if (!lead || lead.status === 'failed' || lead.status === 'stopped') return false;
  return lead.countedTurns < maxLeadTurns;
}

/**
 * Requests to the lead that would never be answered: the lead is between turns and can take
 * no more. They go to the person (`team:request-forwarded`), so every request reaches someone.
 */
export function strandedWithLead(state: RunState, maxLeadTurns: number): RequestRecord[] {
  const lead = state.lead === null ? undefined : state.agents.get(state.lead);
  if (!lead || lead.status === 'working' || leadCanAnswer(state, maxLeadTurns)) return [];
  return openRequests(state).filter((request) => request.to === 'lead');
}

/** Whether the turn's agent opened a request in this turn (answered since or not), but for those the turn was given the answers to. */
export function askedInTurn(state: RunState, turn: TurnDescriptor): boolean {
  // A replay of a turn a crash cut was given the answers to what the cut turn asked: those
  // are not waited for again.
  const given = new Set(turn.answerIds ?? []);
  for (const request of state.governance.requests.values())
    if (request.from === turn.agent && request.openedInTurn === turn.turn && !given.has(request.id))
      return true;
  return false;
}

/** Whether the turn is a member's first step on a task that needs an approved plan. */
export function inPlanPhase(view: RequestsView, agent: Agent, turn: TurnDescriptor): boolean {
  if (turn.role !== 'member' || turn.taskId === null || !agent.governance.requirePlanApproval) return false;
  return needsPlan(view, agent.name, turn.taskId);
}
