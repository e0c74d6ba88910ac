// The page's only way to the Studio: its public HTTP API (see docs/guide/studio.md), at `api/` under
// the page's own path (the <base> of its HTML), where the page's session cookie goes: every
// request of the page (fetch and EventSource alike) carries it. The launch's token never
// reaches the page: the Studio traded it for the cookie before it served the page.

import type { StoreReach } from '../server/event-stream.js';
import type { TeamSummary } from '../server/studio-runs.js';
import type { RunSummary } from '../server/studio-store.js';

export type { RunSummary, StoreReach, TeamSummary };

/** Sent with every call: the Studio takes a change only with it, which no other origin's page can read. */
const csrf = document.querySelector<HTMLMetaElement>('meta[name="studio-csrf"]')?.content ?? '';

/** One call of the API; a refusal throws its reason (the `error` of the answer's body). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers:
      body === undefined
        ? { 'x-studio-csrf': csrf }
        : { 'x-studio-csrf': csrf, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new Error(answer.error ?? `${method} ${path} answered ${response.status}`);
  return answer;
}

export const listTeams = () => call<TeamSummary[]>('GET', 'api/teams');
export const listRuns = () => call<RunSummary[]>('GET', 'api/runs');
export const startRun = (team: string, input: string) =>
  call<{ runId: string }>('POST', 'api/runs', { team, input });
export const runSummary = (runId: string) => call<RunSummary>('GET', `api/runs/${encodeURIComponent(runId)}`);
export const resumeRun = (runId: string) =>
  call<{ runId: string; resumed: true }>('POST', `api/runs/${encodeURIComponent(runId)}/resume`, {});
export const sendMessage = (runId: string, to: string, content: string) =>
  call<{ id: string }>('POST', `api/runs/${encodeURIComponent(runId)}/messages`, { to, content });
export const abortRun = (runId: string) =>
  call<object>('POST', `api/runs/${encodeURIComponent(runId)}/abort`, {});
export const readInbox = (runId: string) =>
  call<{ messages: unknown[] }>('POST', `api/runs/${encodeURIComponent(runId)}/inbox/read`, {});
export const eventsUrl = (runId: string) => `api/runs/${encodeURIComponent(runId)}/events`;
export const answerRequest = (
  runId: string,
  requestId: string,
  answer: { approve: boolean; feedback: string; always: boolean },
) =>
  call<object>('POST', `api/runs/${encodeURIComponent(runId)}/requests/${encodeURIComponent(requestId)}`, {
    approve: answer.approve,
    ...(answer.feedback.trim() ? { feedback: answer.feedback } : {}),
    ...(answer.always ? { always: true } : {}),
  });
export const addMember = (runId: string, member: { name: string; instructions: string; model?: string }) =>
  call<{ name: string; model: string }>('POST', `api/runs/${encodeURIComponent(runId)}/members`, member);
export const removeMember = (runId: string, member: string) =>
  call<object>('DELETE', `api/runs/${encodeURIComponent(runId)}/members/${encodeURIComponent(member)}`);
export const interruptMember = (runId: string, member: string, message: string) =>
  call<{ id: string }>('POST', `api/runs/${encodeURIComponent(runId)}/interrupt`, { member, message });
export const shutdownMember = (runId: string, member: string, force: boolean) =>
  call<object>('POST', `api/runs/${encodeURIComponent(runId)}/shutdown`, { member, force });
