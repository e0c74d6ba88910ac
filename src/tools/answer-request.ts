import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { foldEvents } from '../fold/apply-event.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { TeamStore } from '../store/team-store.js';

/** An answer to a request: approve or reject, with feedback for the asker. */
export interface RequestAnswer {
  approve: boolean;
  /** What the asker reads with the answer (why, or what to change); ≤20,000 characters. */
  feedback?: string;
}

const FEEDBACK_LENGTH = 20_000;

/** Checks an answer's shape; throws `invalid-input` naming what is wrong. */
function checkAnswer(answer: unknown): { approve: boolean; feedback: string } {
  if (typeof answer !== 'object' || answer === null) {
    throw new TeamError('invalid-input', 'An answer is { approve: true | false, feedback? }.');
  }
  checkKnownKeys('an answer', answer, ['approve', 'feedback']);
  const { approve, feedback = '' } = answer as { approve?: unknown; feedback?: unknown };
  if (typeof approve !== 'boolean') throw new TeamError('invalid-input', 'approve must be true or false.');
  if (typeof feedback !== 'string' || feedback.length > FEEDBACK_LENGTH) {
    throw new TeamError('invalid-input', `feedback must be a string of ≤${FEEDBACK_LENGTH} characters.`);
  }
  return { approve, feedback };
}

function describeClosed(request: RequestRecord): string {
  const how = request.approve ? 'approved' : 'rejected';
  return request.status === 'expired'
    ? `The request ${request.id} expired with no answer (${how} by default).`
    : `The request ${request.id} was already ${how} by ${request.by}.`;
}

/** The request as the run's log tells it now; throws when there is none or it is closed. */
export function openRequestOf(request: RequestRecord | undefined, requestId: string): RequestRecord {
  if (!request) {
    throw new TeamError('request-not-found', `There is no request ${requestId} in this run.`, {
      details: { requestId },
    });
  }
  if (request.status !== 'open') {
    throw new TeamError('request-closed', describeClosed(request), { details: { requestId } });
  }
  return request;
}

/**
 * Answers a request of the run `runId` in one commit, as `by` (`user`, or the lead). The
 * log decides: the first answer or expiry committed counts. So the request is checked open
 * before the commit, and the log is read again after it; an answer that lost a race (to
 * another answer or the expiry) is refused with `request-closed` and changes nothing.
 */
export async function answerRequest(
  store: TeamStore,
  team: string,
  runId: string,
  requestId: unknown,
  answer: unknown,
  by: string,
): Promise<RequestRecord> {
  if (typeof requestId !== 'string' || !requestId) {
    throw new TeamError('invalid-input', 'A request id is a non-empty string, such as req-coder-2-1.');
  }
  const { approve, feedback } = checkAnswer(answer);
  openRequestOf(foldEvents(await store.readEvents(runId)).governance.requests.get(requestId), requestId);
  await store.transact(team, ({ emit }) =>
    emit({ type: 'team:request-answered', data: { requestId, approve, feedback, by } }),
  );
  const after = foldEvents(await store.readEvents(runId)).governance.requests.get(requestId);
  if (!after || after.by !== by || after.approve !== approve || after.feedback !== feedback) {
    throw new TeamError(
      'request-closed',
      after ? describeClosed(after) : `The request ${requestId} closed.`,
      {
        details: { requestId },
      },
    );
  }
  return after;
}
