import { dueRequests, nextExpiry, strandedWithLead } from '../fold/request-queries.js';
import type { RunState } from '../fold/run-state.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { TeamRules } from '../store/team-store.js';

// The longest delay a Node timer takes; a later expiry is looked at again when it fires.
const LONGEST_DELAY = 2 ** 31 - 1;

/**
 * The loop's deadline for requests: armed for the next expiry of the open requests, it posts
 * one input when that time comes, and the loop (the one writer) commits the expiries then.
 * Nothing is decided here: a request answered first is no longer open, so it does not expire.
 */
export class RequestClock {
  readonly #post: () => void;
  #timer: NodeJS.Timeout | undefined;
  #due: number | undefined;

  constructor(post: () => void) {
    this.#post = post;
  }

  /** Arms the clock for the state's next expiry (call after each look at the state); true while a request is open. */
  arm(state: RunState): boolean {
    const next = nextExpiry(state);
    if (next === this.#due) return next !== undefined;
    this.clear();
    this.#due = next;
    if (next === undefined) return false;
    const delay = Math.min(Math.max(0, next - Date.now()), LONGEST_DELAY);
    this.#timer = setTimeout(() => {
      this.#due = undefined;
      this.#post();
    }, delay);
    return true;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#due = undefined;
  }
}

function expire(emit: TeamRules['emit'], request: RequestRecord, why: string): void {
  const outcome = request.defaultApprove ? 'the plan goes ahead' : 'denied';
  emit({
    type: 'team:request-expired',
    data: { requestId: request.id, approve: request.defaultApprove, feedback: `${why}: ${outcome}.` },
  });
}

/** Commits the expiry of every open request due by `now`, each into its default answer. */
export function expireDue({ emit }: TeamRules, state: RunState, now: number): void {
  for (const request of dueRequests(state, now))
    expire(emit, request, `No answer within ${request.timeoutMs} ms`);
}

/** Closes every request still open (its asker stopped, or the run ended on its budget) as the run ends. */
export function expireOpen(emit: TeamRules['emit'], state: RunState, why: string): void {
  for (const request of state.governance.requests.values())
    if (request.status === 'open') expire(emit, request, `No answer before ${why}`);
}

/** Forwards to the person the requests to a lead that can take no more turns. */
export function forwardStranded({ emit }: TeamRules, state: RunState, maxLeadTurns: number): void {
  for (const request of strandedWithLead(state, maxLeadTurns)) {
    const reason = 'the lead can take no more turns';
    emit({ type: 'team:request-forwarded', data: { requestId: request.id, to: 'user', reason } });
  }
}
