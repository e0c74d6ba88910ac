/** The statuses the Studio answers with when it refuses a request. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;

/** An answer other than success: its HTTP status and the one-line reason the body carries. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: RefusalStatus;

  constructor(status: RefusalStatus, message: string) {
    super(message);
    this.status = status;
  }
}

/** The bare 401 of a request without the token or a session: no page, no data, not even which routes exist. */
export const unauthorized = () => new ApiError(401, '');

// Refusals that mean "not now" rather than "not this": the run is live elsewhere, or over.
const CONFLICTS = new Set([
  'team-busy',
  'aborted',
  'request-closed',
  'member-shutdown',
  'run-ended',
  'not-live',
  'task-in-progress',
]);
const MISSING = new Set(['team-not-found', 'task-not-found', 'request-not-found']);

/**
 * The status and body for an error thrown while handling a request: an `ApiError` as it is
 * (a 401 with no body at all); a `TeamError` (a rule's refusal, a bad name) as 400, 404 or 409
 * with its message and code; anything else is the Studio's fault (500) and is logged.
 */
function errorAnswer(error: unknown): { status: RefusalStatus | 500; body: object | null } {
  if (error instanceof ApiError) {
    return { status: error.status, body: error.status === 401 ? null : { error: error.message } };
  }
  // By name, not instanceof: a team file loads its own copy of the library.
  const team = error as { name?: unknown; code?: unknown; message?: unknown } | null;
  if (team?.name === 'TeamError' && typeof team.code === 'string') {
    const status = CONFLICTS.has(team.code) ? 409 : MISSING.has(team.code) ? 404 : 400;
    return { status, body: { error: String(team.message), code: team.code } };
  }
  console.error(error);
  return { status: 500, body: { error: 'The Studio failed on this request; its log says why.' } };
}

/**
 * The response for an error thrown while handling `request` (see `errorAnswer`). A refused
 * request that came with a body closes its connection: the Studio reads no more of a body it
 * refused (else the server would drain the rest of it, however large, to keep the connection).
 */
export function errorResponse(error: unknown, request: Request): Response {
  const { status, body } = errorAnswer(error);
  const headers = new Headers();
  if (body) headers.set('content-type', 'application/json');
  if (request.headers.has('content-length') || request.headers.has('transfer-encoding'))
    headers.set('connection', 'close');
  return new Response(body && JSON.stringify(body), { status, headers });
}
