import { checkMember, type TeamRoster, USER } from '../agent/participants.js';
import { TeamError } from '../errors/team-error.js';
import type { GrantTool, RequestKind, TeamEventSink } from '../events/team-event-map.js';
import { latestRequest } from './request-queries.js';
import type { RequestRecord, RequestsView } from './request-state.js';

/** What a request asks, before it has an id. */
export interface RequestDraft {
  readonly kind: RequestKind;
  /** Whom to ask; the run forwards a request to the lead to the person when the lead can take no more turns. */
  readonly to: 'lead' | 'user';
  readonly subject: string;
  readonly taskId: string | null;
  readonly tool: string | null;
  readonly path: string | null;
  /** The asked call's input (JSON) for a permission or tool request: run as asked once approved. */
  readonly input?: string | null;
}

/** How long requests wait for an answer: a plan goes ahead after its wait, the rest are denied. */
export interface RequestTimeouts {
  readonly planApprovalTimeoutMs: number;
  readonly permissionTimeoutMs: number;
}

/** An answer to a request: approve or reject, with feedback for the asker. */
export interface RequestAnswer {
  /** Whether the request is approved. */
  approve: boolean;
  /** What the asker reads with the answer (why, or what to change); ≤20,000 characters. */
  feedback?: string;
  /**
   * With an approval of a permission or tool request: it also stands for later calls (that
   * tool on that path, or that tool), not only the call asked.
   */
  always?: boolean;
}

/** A subject's and a feedback's bound: the answerer (or the asker) reads it in a briefing or a terminal. */
const REQUEST_TEXT_LENGTH = 20_000;

/** A subject as a request keeps it: cut to `REQUEST_TEXT_LENGTH` with a marker. */
export function requestSubject(text: string): string {
  return text.length > REQUEST_TEXT_LENGTH ? `${text.slice(0, REQUEST_TEXT_LENGTH - 1)}…` : text;
}

function describeClosed(request: RequestRecord): string {
  const how = request.approve ? 'approved' : 'rejected';
  return request.status === 'expired'
    ? `The request ${request.id} expired with no answer (${how} by default).`
    : `The request ${request.id} was already ${how} by ${request.by}.`;
}

/**
 * The rules of requests (plan approvals, permissions, tool approvals) and path grants, run
 * inside a store's transaction like the board and the mailbox: so whether a request is open,
 * who may answer it and what a grant covers is decided there, the same for every process.
 * Each command emits its event; the store folds it into the requests at once.
 */
export class TeamRequests {
  readonly #view: () => RequestsView;
  readonly #roster: () => TeamRoster;
  readonly #events: TeamEventSink;

  constructor(view: () => RequestsView, roster: () => TeamRoster, events: TeamEventSink) {
    this.#view = view;
    this.#roster = roster;
    this.#events = events;
  }

  /** The requests and grants as this transaction sees them. */
  view(): RequestsView {
    return this.#view();
  }

  /** The request `requestId`, as this transaction sees it; `undefined` when there is none. */
  get(requestId: string): RequestRecord | undefined {
    return this.#view().requests.get(requestId);
  }

  /**
   * `from` asks. Checks: `from` is on the team. Changes nothing and answers the open request
   * when `from` asked exactly this already (the same kind, subject, task, tool and path), so a
   * call made twice opens one request. Otherwise opens one: its id is the asker, its turn and
   * a count within the turn (`req-coder-2-1`). Events: `team:request-opened`.
   */
  open(from: string, draft: RequestDraft, turn: number | null, timeouts: RequestTimeouts): RequestRecord {
    const roster = this.#roster();
    if (from !== roster.lead && !roster.members.includes(from)) {
      throw new TeamError('unknown-agent', `${JSON.stringify(from)} is not on the team.`, {
        details: { agent: from },
      });
    }
    const subject = requestSubject(draft.subject);
    const same = latestRequest(
      this.#view(),
      from,
      draft.kind,
      (request) =>
        request.subject === subject &&
        request.taskId === draft.taskId &&
        request.tool === draft.tool &&
        request.path === draft.path,
    );
    if (same?.status === 'open') return same;
    let count = 0;
    for (const request of this.#view().requests.values())
      if (request.from === from && request.openedInTurn === turn) count++;
    const requestId = `req-${from}-${turn ?? 0}-${count + 1}`;
    const plan = draft.kind === 'plan';
    this.#events.emit({
      type: 'team:request-opened',
      data: {
        requestId,
        kind: draft.kind,
        from,
        to: draft.to,
        subject,
        taskId: draft.taskId,
        tool: draft.tool,
        path: draft.path,
        timeoutMs: plan ? timeouts.planApprovalTimeoutMs : timeouts.permissionTimeoutMs,
        defaultApprove: plan,
        turn,
        ...(draft.input != null ? { input: draft.input } : {}),
      },
    });
    return this.get(requestId) as RequestRecord;
  }

  /**
   * `by` (the person, `user`, or the lead) answers. Checks: the request exists
   * (`request-not-found`) and is open (`request-closed`: the first answer or expiry counts);
   * the lead answers only requests addressed to the lead (`invalid-input`). Events:
   * `team:request-answered`.
   */
  answer(
    requestId: string,
    answer: { approve: boolean; feedback: string; always?: boolean },
    by: string,
  ): RequestRecord {
    const request = this.get(requestId);
    if (!request) {
      throw new TeamError('request-not-found', `There is no request ${requestId} in this run.`, {
        details: { requestId },
      });
    }
    if (request.status !== 'open') {
      throw new TeamError('request-closed', describeClosed(request), { details: { requestId } });
    }
    if (by !== USER && (by !== this.#roster().lead || request.to !== 'lead')) {
      throw new TeamError('invalid-input', `The request ${requestId} is for the user to answer, not you.`, {
        details: { requestId },
      });
    }
    if (answer.feedback.length > REQUEST_TEXT_LENGTH) {
      throw new TeamError(
        'invalid-input',
        `feedback must be a string of ≤${REQUEST_TEXT_LENGTH} characters.`,
      );
    }
    const { approve, feedback, always = false } = answer;
    if (always && (!approve || request.kind === 'plan')) {
      throw new TeamError('invalid-input', 'always goes with the approval of a permission or tool request.', {
        details: { requestId },
      });
    }
    const standing = always ? { always: true } : {};
    this.#events.emit({
      type: 'team:request-answered',
      data: { requestId, approve, feedback, by, ...standing },
    });
    return this.get(requestId) as RequestRecord;
  }

  /** Nobody answered in time: the request closes into its default. Events: `team:request-expired`. */
  expire(requestId: string, why: string): void {
    const request = this.get(requestId);
    if (request?.status !== 'open') return;
    const outcome = request.defaultApprove ? 'the plan goes ahead' : 'denied';
    this.#events.emit({
      type: 'team:request-expired',
      data: { requestId, approve: request.defaultApprove, feedback: `${why}: ${outcome}.` },
    });
  }

  /**
   * The harness ran the approved call of `requestId` as asked. Checks: the request is an
   * approved permission or tool request with its call kept, not run yet (else nothing
   * happens: a call runs once). Events: `team:approved-call-ran`.
   */
  ran(requestId: string, output: string, turn: number): boolean {
    const request = this.get(requestId);
    if (!request?.approve || request.status !== 'answered' || request.input === null || request.ran)
      return false;
    if (request.tool === null) return false;
    const data = { requestId, agent: request.from, turn, tool: request.tool, output };
    this.#events.emit({ type: 'team:approved-call-ran', data });
    return true;
  }

  /** A request to the lead goes to the person instead. Events: `team:request-forwarded`. */
  forward(requestId: string, reason: string): void {
    const request = this.get(requestId);
    if (request?.status !== 'open' || request.to !== 'lead') return;
    this.#events.emit({ type: 'team:request-forwarded', data: { requestId, to: 'user', reason } });
  }

  /**
   * `by` lets a member use a file tool on paths without asking. Checks: `member` is a member.
   * Events: `team:paths-granted`.
   */
  grant(member: string, paths: readonly string[], tool: GrantTool, by: string): void {
    checkMember(this.#roster(), member, 'be granted paths');
    this.#events.emit({ type: 'team:paths-granted', data: { member, paths, tool, by } });
  }
}
