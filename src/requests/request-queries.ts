import type { RequestKind } from '../events/team-event-map.js';
import type { RequestRecord, RequestsView } from './request-state.js';

// Questions asked of the requests, wherever they are kept: a store's (inside a transaction,
// by the tools) or a run's fold (by the schedule). Pure.

/** The latest request of `from` of this kind that `matches` (a later one supersedes an earlier). */
export function latestRequest(
  view: RequestsView,
  from: string,
  kind: RequestKind,
  matches: (request: RequestRecord) => boolean,
): RequestRecord | undefined {
  let latest: RequestRecord | undefined;
  for (const request of view.requests.values())
    if (request.from === from && request.kind === kind && matches(request)) latest = request;
  return latest;
}

export type PlanStatus =
  | { readonly kind: 'none' }
  | { readonly kind: 'waiting'; readonly requestId: string }
  | { readonly kind: 'approved'; readonly feedback: string }
  | { readonly kind: 'rejected'; readonly feedback: string };

/** Where `agent`'s plan for `taskId` stands: its latest plan request decides. */
export function planStatus(view: RequestsView, agent: string, taskId: string): PlanStatus {
  const latest = latestRequest(view, agent, 'plan', (request) => request.taskId === taskId);
  if (!latest) return { kind: 'none' };
  if (latest.status === 'open') return { kind: 'waiting', requestId: latest.id };
  return latest.approve
    ? { kind: 'approved', feedback: latest.feedback }
    : { kind: 'rejected', feedback: latest.feedback };
}

/** The open requests addressed to `to`, in the order they were opened. */
export function openRequestsTo(view: RequestsView, to: 'lead' | 'user'): RequestRecord[] {
  return [...view.requests.values()].filter((request) => request.status === 'open' && request.to === to);
}

/** Whether the task's member must still have its plan approved before it works on the task. */
export function needsPlan(view: RequestsView, agent: string, taskId: string): boolean {
  return planStatus(view, agent, taskId).kind !== 'approved';
}
