import type { GrantTool, RequestKind, TeamEvent, TeamEventMap } from '../events/team-event-map.js';

/** One request as the run's events tell it. */
export interface RequestRecord {
  readonly id: string;
  readonly kind: RequestKind;
  readonly from: string;
  /** Whom it is for now (a request to the lead may be forwarded to the person). */
  to: 'lead' | 'user';
  readonly subject: string;
  readonly taskId: string | null;
  readonly tool: string | null;
  readonly path: string | null;
  readonly timeoutMs: number;
  readonly defaultApprove: boolean;
  /** When it was opened (ms since the epoch, from its event's commit time). */
  readonly openedAt: number;
  /** The turn of `from` that opened it (`null` when it opened between turns). */
  readonly openedInTurn: number | null;
  status: 'open' | 'answered' | 'expired';
  /** The answer that counted (an answer, or the default on expiry); `null` while open. */
  approve: boolean | null;
  feedback: string;
  /** Who answered (`user` or the lead); `null` while open or once expired. */
  by: string | null;
  /** The lead has had a turn since it opened (its briefing listed it). */
  shown: boolean;
  /** The turn of `from` the answer was given to; it is delivered once that turn ends. */
  givenInTurn: number | null;
  delivered: boolean;
}

/** A grant of the lead (`grant_paths`) or an approved permission request. */
interface PathGrant {
  readonly member: string;
  /** A glob relative to the workspace root. */
  readonly pattern: string;
  readonly tool: GrantTool;
}

/** What a run's governance events fold into: part of the run state, rebuilt on resume. */
export interface GovernanceState {
  readonly requests: Map<string, RequestRecord>;
  readonly grants: PathGrant[];
  /** Each agent's turn in progress, by name (for the turn a request opens in). */
  readonly turns: Map<string, number>;
}

export function emptyGovernance(): GovernanceState {
  return { requests: new Map(), grants: [], turns: new Map() };
}

function opened(governance: GovernanceState, event: TeamEvent<'team:request-opened'>): void {
  const data = event.data;
  if (governance.requests.has(data.requestId)) return;
  governance.requests.set(data.requestId, {
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
    openedAt: Date.parse(event.timestamp),
    openedInTurn: governance.turns.get(data.from) ?? null,
    status: 'open',
    approve: null,
    feedback: '',
    by: null,
    shown: false,
    givenInTurn: null,
    delivered: false,
  });
}

/** The first answer or expiry closes a request; a later one (a race lost) changes nothing. */
function closed(
  governance: GovernanceState,
  data: TeamEventMap['team:request-answered'] | TeamEventMap['team:request-expired'],
  status: 'answered' | 'expired',
): void {
  const request = governance.requests.get(data.requestId);
  if (request?.status !== 'open') return;
  request.status = status;
  request.approve = data.approve;
  request.feedback = data.feedback;
  request.by = 'by' in data ? data.by : null;
  // An approved permission lets its asker use that tool on that path from now on.
  if (data.approve && request.kind === 'permission' && request.path !== null) {
    const tool = request.tool === 'edit_file' ? 'edit_file' : 'write_file';
    governance.grants.push({ member: request.from, pattern: request.path, tool });
  }
}

/**
 * Folds one event into the governance part of the run state (called by `applyEvent`).
 * Besides the request events it reads turn starts and ends: a lead turn sees the requests
 * addressed to it, and an answer counts as delivered once the asker's turn given it ends.
 */
export function applyGovernanceEvent(governance: GovernanceState, event: TeamEvent): void {
  switch (event.type) {
    case 'team:request-opened':
      opened(governance, event);
      break;
    case 'team:request-answered':
      closed(governance, event.data, 'answered');
      break;
    case 'team:request-expired':
      closed(governance, event.data, 'expired');
      break;
    case 'team:resumed':
      governance.turns.clear();
      break;
    case 'team:request-forwarded': {
      const request = governance.requests.get(event.data.requestId);
      if (request?.status === 'open') request.to = event.data.to;
      break;
    }
    case 'team:paths-granted':
      for (const pattern of event.data.paths)
        governance.grants.push({ member: event.data.member, pattern, tool: event.data.tool });
      break;
    case 'team:member-started':
      governance.turns.set(event.data.member, event.data.turn);
      for (const request of governance.requests.values()) {
        if (event.data.role === 'lead' && event.data.reason !== 'synthesis' && request.to === 'lead')
          request.shown = true;
        if (request.from === event.data.member && request.status !== 'open' && !request.delivered)
          request.givenInTurn = event.data.turn;
      }
      break;
    case 'team:member-finished':
      governance.turns.delete(event.data.member);
      for (const request of governance.requests.values()) {
        if (request.from === event.data.member && request.givenInTurn === event.data.turn)
          request.delivered = true;
      }
      break;
  }
}
