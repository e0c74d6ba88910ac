import type { GrantTool, RequestKind, TeamEvent, TeamEventMap } from '../events/team-event-map.js';

/** One request as the team's events tell it: who asks whom, what, and how it was answered. */
export interface RequestRecord {
  /** The request's id. */
  readonly id: string;
  /** What it asks for. */
  readonly kind: RequestKind;
  /** The agent that asks. */
  readonly from: string;
  /** Whom it is for now (a request to the lead may be forwarded to the person). */
  to: 'lead' | 'user';
  /** What is asked, as the one who answers reads it. */
  readonly subject: string;
  /** The task it is asked for; `null` when none. */
  readonly taskId: string | null;
  /** The tool, for a permission or tool request; `null` otherwise. */
  readonly tool: string | null;
  /** The path a file tool acts on; `null` when none. */
  readonly path: string | null;
  /** Expires this long after it opened, into `defaultApprove`. */
  readonly timeoutMs: number;
  /** The answer it gets if it expires. */
  readonly defaultApprove: boolean;
  /** When it was opened (ms since the epoch, from its event's commit time). */
  readonly openedAt: number;
  /** The turn of `from` that opened it (`null` when it opened between turns). */
  readonly openedInTurn: number | null;
  /** Whether it is open, answered, or expired. */
  status: 'open' | 'answered' | 'expired';
  /** The answer that counted (an answer, or the default on expiry); `null` while open. */
  approve: boolean | null;
  /** The answer's reasons, as the asker reads them; empty while open. */
  feedback: string;
  /** Who answered (`user` or the lead); `null` while open or once expired. */
  by: string | null;
  /** The asked call's input (JSON) for a permission or tool request; the harness runs it once approved. */
  readonly input: string | null;
  /**
   * The approved call ran (`team:approved-call-ran`): in which turn of its asker, and what it
   * answered. An approval covers one call; a replay of that turn reads the answer again.
   */
  ran: {
    /** The asker's turn the call ran in. */
    readonly turn: number;
    /** What the call answered, as JSON. */
    readonly output: string;
  } | null;
}

/** A standing approval of a tool for an agent (an answer with `always`). */
interface ToolGrant {
  readonly member: string;
  readonly tool: string;
}

/** A grant of the lead (`grant_paths`) or a permission approved with `always`. */
interface PathGrant {
  readonly member: string;
  /** A glob relative to the workspace root. */
  readonly pattern: string;
  readonly tool: GrantTool;
}

/**
 * The requests and path grants of a team's current run. The same value in two places, made by
 * the same function from the same events: a store keeps it with the team (so a tool checks a
 * request or a grant inside its transaction, whoever runs the turn and however far the run's
 * loop has read), and the run's fold keeps it in the run state.
 */
export interface RequestsState {
  /** Every request of the run, open or answered, by id. */
  readonly requests: Map<string, RequestRecord>;
  /** The file paths granted beyond agents' `allowedPaths` (by approved permission requests or the lead's grant_paths). */
  readonly grants: PathGrant[];
  /** The standing approvals of tool calls (an approval given with `always`). */
  readonly toolGrants: ToolGrant[];
}

/** What the request questions read: the requests, from a store or a fold. */
export interface RequestsView {
  readonly requests: ReadonlyMap<string, RequestRecord>;
  readonly grants: readonly PathGrant[];
  readonly toolGrants: readonly ToolGrant[];
}

export function emptyRequests(): RequestsState {
  return { requests: new Map(), grants: [], toolGrants: [] };
}

/** The events that change a `RequestsState`; every other event leaves it as it is. */
const REQUEST_EVENTS: ReadonlySet<string> = new Set([
  'team:request-opened',
  'team:request-answered',
  'team:request-expired',
  'team:request-forwarded',
  'team:paths-granted',
  'team:approved-call-ran',
]);

export function changesRequests(type: string): boolean {
  return REQUEST_EVENTS.has(type);
}

function opened(state: RequestsState, data: TeamEventMap['team:request-opened'], at: number): void {
  if (state.requests.has(data.requestId)) return;
  state.requests.set(data.requestId, {
    id: data.requestId,
    kind: data.kind,
    from: data.from,
    to: data.to,
    subject: data.subject,
    taskId: data.taskId,
    tool: data.tool,
    path: data.path,
    timeoutMs: data.timeoutMs,
    defaultApprove: data.defaultApprove,
    openedAt: at,
    openedInTurn: data.turn ?? null,
    status: 'open',
    approve: null,
    feedback: '',
    by: null,
    input: data.input ?? null,
    ran: null,
  });
}

/** The first answer or expiry closes a request; a later one (a race lost) changes nothing. */
function closed(
  state: RequestsState,
  data: TeamEventMap['team:request-answered'] | TeamEventMap['team:request-expired'],
  status: 'answered' | 'expired',
): void {
  const request = state.requests.get(data.requestId);
  if (request?.status !== 'open') return;
  request.status = status;
  request.approve = data.approve;
  request.feedback = data.feedback;
  request.by = 'by' in data ? data.by : null;
  // An approval covers the one call asked; with `always` it stands for later calls too.
  if (!data.approve || !('always' in data) || !data.always || request.tool === null) return;
  if (request.kind === 'permission' && request.path !== null) {
    const tool = request.tool === 'edit_file' ? 'edit_file' : 'write_file';
    state.grants.push({ member: request.from, pattern: request.path, tool });
  }
  if (request.kind === 'tool') state.toolGrants.push({ member: request.from, tool: request.tool });
}

/**
 * Folds one event into the requests, in place. Deterministic: the same events give the same
 * requests in a store's transaction and in a run's fold. `at` is the event's commit time.
 */
export function applyRequestEvent(
  state: RequestsState,
  event: Pick<TeamEvent, 'type' | 'data'>,
  at: number,
): void {
  switch (event.type) {
    case 'team:request-opened':
      opened(state, event.data as TeamEventMap['team:request-opened'], at);
      break;
    case 'team:request-answered':
      closed(state, event.data as TeamEventMap['team:request-answered'], 'answered');
      break;
    case 'team:request-expired':
      closed(state, event.data as TeamEventMap['team:request-expired'], 'expired');
      break;
    case 'team:request-forwarded': {
      const data = event.data as TeamEventMap['team:request-forwarded'];
      const request = state.requests.get(data.requestId);
      if (request?.status === 'open') request.to = data.to;
      break;
    }
    case 'team:paths-granted': {
      const data = event.data as TeamEventMap['team:paths-granted'];
      for (const pattern of data.paths) state.grants.push({ member: data.member, pattern, tool: data.tool });
      break;
    }
    case 'team:approved-call-ran': {
      const data = event.data as TeamEventMap['team:approved-call-ran'];
      const request = state.requests.get(data.requestId);
      if (request) request.ran = { turn: data.turn, output: data.output };
      break;
    }
  }
}

/** A copy that shares nothing mutable with `state` (a transaction changes the copy). */
export function copyRequests(state: RequestsView): RequestsState {
  return {
    requests: new Map([...state.requests].map(([id, request]) => [id, { ...request }])),
    grants: [...state.grants],
    toolGrants: [...state.toolGrants],
  };
}

/** The requests as a store writes them: plain JSON. */
export interface StoredRequests {
  readonly requests: readonly StoredRequest[];
  readonly grants: readonly PathGrant[];
  /** Absent in stores written before tool grants. */
  readonly toolGrants?: readonly ToolGrant[] | undefined;
}

/** A request as a store keeps it; one written before calls were kept lacks `input` and `ran`. */
type StoredRequest = Omit<RequestRecord, 'input' | 'ran'> & {
  readonly input?: string | null | undefined;
  readonly ran?: { readonly turn: number; readonly output: string } | null | undefined;
};

export function storedRequests(state: RequestsView): StoredRequests {
  return {
    requests: [...state.requests.values()],
    grants: [...state.grants],
    toolGrants: [...state.toolGrants],
  };
}

export function requestsFrom(stored: StoredRequests | undefined): RequestsState {
  if (!stored) return emptyRequests();
  return {
    requests: new Map(
      stored.requests.map((request) => [
        request.id,
        { ...request, input: request.input ?? null, ran: request.ran ?? null },
      ]),
    ),
    grants: [...stored.grants],
    toolGrants: [...(stored.toolGrants ?? [])],
  };
}
