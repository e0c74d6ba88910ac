import type { Agent } from '../agent/agent.js';
import { inPlanPhase, openRequests, pendingAnswers, planStatus } from '../fold/request-queries.js';
import type { RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { RequestRecord } from '../requests/request-state.js';

// What a turn's briefing says of requests: the lead's open ones to answer, a member's
// answers, and the plan a task waits for. Short, like every briefing.

function answerLine(request: RequestRecord): string {
  const verdict = request.approve ? 'approved' : 'rejected';
  const how =
    request.status === 'expired'
      ? `nobody answered in time: ${verdict} by default`
      : `${verdict} by ${request.by}`;
  const what = request.kind === 'plan' ? `your plan for ${request.taskId}` : request.subject;
  return `- ${request.id} (${request.kind}: ${what}): ${how}${request.feedback ? `. Feedback: ${request.feedback}` : ''}`;
}

/** The sections governance adds to a turn's briefing (none for most turns). */
export function governanceNotes(run: RunState, turn: TurnDescriptor, agent: Agent | undefined): string[] {
  if (turn.reason === 'synthesis') return [];
  const notes: string[] = [];
  if (turn.role === 'lead') {
    const asked = openRequests(run).filter((request) => request.to === 'lead');
    if (asked.length > 0) {
      notes.push(
        `Requests waiting for your answer (answer_request { requestId, approve, feedback? }):\n${asked
          .map((request) => `- ${request.id} (${request.kind}, from ${request.from}): ${request.subject}`)
          .join('\n')}`,
      );
    }
    return notes;
  }
  const answers = pendingAnswers(run, turn.agent);
  if (answers.length > 0) notes.push(`Answers to your requests:\n${answers.map(answerLine).join('\n')}`);
  if (agent && turn.taskId !== null && inPlanPhase(run, agent, turn)) {
    const status = planStatus(run, agent.name, turn.taskId);
    const again =
      status.kind === 'rejected' ? ' Your last plan was rejected: revise it with the feedback.' : '';
    notes.push(
      `Before you work on ${turn.taskId}, submit your plan with submit_plan { plan }: you start once it is approved.${again}`,
    );
  }
  return notes;
}
