import type { Agent } from '../agent/agent.js';
import { inPlanPhase } from '../fold/request-queries.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { openRequestsTo, planStatus } from '../requests/request-queries.js';
import type { RequestRecord, RequestsView } from '../requests/request-state.js';

// What a turn's briefing says of requests: the lead's open ones to answer, a member's
// answers, and the plan a task waits for. Short, like every briefing.

function answerLine(request: RequestRecord): string {
  const verdict = request.approve ? 'approved' : 'rejected';
  const how =
    request.status === 'expired'
      ? `nobody answered in time: ${verdict} by default`
      : `${verdict} by ${request.by}`;
  const what = request.kind === 'plan' ? `your plan for ${request.taskId}` : request.subject;
  // An approved call is made for the agent (its result follows): asking the model to make it
  // again would have it generate the whole call twice.
  const made = request.approve && request.input !== null ? '; the call is made for you as you asked it' : '';
  return `- ${request.id} (${request.kind}: ${what}): ${how}${made}${request.feedback ? `. Feedback: ${request.feedback}` : ''}`;
}

/**
 * The agent's approved calls for this turn: those not made yet (the harness makes each at the
 * start of the agent's next turn), and those made at the start of this very turn (a replay
 * after a crash reads their answers again, and makes none twice).
 */
function approvedCalls(view: RequestsView, turn: TurnDescriptor): RequestRecord[] {
  return [...view.requests.values()].filter(
    (request) =>
      request.from === turn.agent &&
      request.status === 'answered' &&
      request.approve === true &&
      request.input !== null &&
      (request.ran === null || request.ran.turn === turn.turn),
  );
}

/** What the requests give a turn: the sections of its briefing, and what its tools offer. */
export interface TurnRequests {
  readonly notes: readonly string[];
  /** A lead turn with requests to answer: it gets `answer_request`. */
  readonly leadAsked: boolean;
  /** A member's turn on a task whose plan must be approved first: it gets `submit_plan`. */
  readonly planPhase: boolean;
  /** The agent's approved calls the harness makes, as asked, before the model's first step. */
  readonly approvedCalls: readonly RequestRecord[];
}

/**
 * What the requests, read from the store in the turn's briefing transaction, give the turn:
 * the lead's open requests to answer; a member's answers (those the turn was started with:
 * `turn.answerIds`) and the plan a task waits for. Short, like every briefing.
 */
export function turnRequests(
  view: RequestsView,
  turn: TurnDescriptor,
  agent: Agent | undefined,
): TurnRequests {
  const planPhase = agent !== undefined && inPlanPhase(view, agent, turn);
  const leadAsked = turn.role === 'lead' && openRequestsTo(view, 'lead').length > 0;
  const calls = turn.reason === 'synthesis' ? [] : approvedCalls(view, turn);
  return { notes: governanceNotes(view, turn, agent, planPhase), leadAsked, planPhase, approvedCalls: calls };
}

function governanceNotes(
  view: RequestsView,
  turn: TurnDescriptor,
  agent: Agent | undefined,
  planPhase: boolean,
): string[] {
  if (turn.reason === 'synthesis') return [];
  const notes: string[] = [];
  if (turn.role === 'lead') {
    const asked = openRequestsTo(view, 'lead');
    if (asked.length > 0) {
      notes.push(
        `Requests waiting for your answer (answer_request { requestId, approve, feedback? }):\n${asked
          .map((request) => `- ${request.id} (${request.kind}, from ${request.from}): ${request.subject}`)
          .join('\n')}`,
      );
    }
    return notes;
  }
  const answers = (turn.answerIds ?? [])
    .map((id) => view.requests.get(id))
    .filter((request) => request !== undefined && request.status !== 'open') as RequestRecord[];
  if (answers.length > 0) notes.push(`Answers to your requests:\n${answers.map(answerLine).join('\n')}`);
  if (agent && turn.taskId !== null && planPhase) {
    const status = planStatus(view, agent.name, turn.taskId);
    const again =
      status.kind === 'rejected' ? ' Your last plan was rejected: revise it with the feedback.' : '';
    notes.push(
      `Before you work on ${turn.taskId}, submit your plan with submit_plan { plan }: you start once it is approved.${again}`,
    );
  }
  return notes;
}
