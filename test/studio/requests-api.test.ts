import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { startScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { PLAN, reviewHold, teams } from './fixtures/studio-teams.js';
import { readStream } from './helpers/sse.js';

// `POST /api/runs/:runId/requests/:requestId` and `POST /api/runs/:runId/shutdown`: the
// person answers a member's plan and shuts members down, for runs of the Studio and others.

const elsewhere = fileURLToPath(new URL('./fixtures/run-elsewhere.ts', import.meta.url));

let server: StudioServer;
let root: string;
const api = (route: string) => new URL(route, server.url).href.replace(/\?.*$/, '');
const auth = () => ({ authorization: `Bearer ${server.token}` });
const post = (route: string, body: unknown) =>
  fetch(api(route), {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const answer = async (response: Response) => (await response.json()) as Record<string, unknown>;
const start = async (team: string) =>
  String((await answer(await post('/api/runs', { team, input: 'Go' }))).runId);
const streamOf = (runId: string, until: (event: TeamEvent) => boolean) =>
  readStream(api(`/api/runs/${runId}/events`), { headers: auth(), until });
const opened = (event: TeamEvent) => event.type === 'team:request-opened';
const ended = (event: TeamEvent) => event.type === 'team:complete';

beforeAll(async () => {
  root = path.join(tempFolder(), 'store');
  server = await startStudio({ teams, studio: studioStoreOf(new FileStore({ root })) });
});
afterAll(() => server.close());

test('the person approves a plan through the API; the run goes on; a second answer is refused', async () => {
  // The approved work waits until the second answer is refused: the run is still going then.
  let release = () => {};
  reviewHold.until = new Promise<void>((resolve) => {
    release = resolve;
  });
  const runId = await start('review');
  const { events } = await streamOf(runId, opened);
  const request = events.at(-1) as TeamEvent<'team:request-opened'>;
  expect(request.data).toMatchObject({ kind: 'plan', from: 'builder', subject: `Plan for task-1:\n${PLAN}` });
  const route = `/api/runs/${runId}/requests/${request.data.requestId}`;
  const bad: [unknown, string][] = [
    [{}, 'approve must be true or false'],
    [{ approve: 'yes' }, 'approve must be true or false'],
    [{ approve: true, feedback: '' }, 'feedback must be a non-empty string'],
    [{ approve: true, note: 'x' }, 'it does not know "note"'],
  ];
  for (const [body, message] of bad) {
    const response = await post(route, body);
    expect(response.status).toBe(400);
    expect((await answer(response)).error).toContain(message);
  }
  const unknown = await post(`/api/runs/${runId}/requests/req-nobody-1-1`, { approve: true });
  expect(unknown.status).toBe(404);
  expect((await answer(unknown)).code).toBe('request-not-found');
  expect((await post(`/api/runs/no-such-run/requests/x`, { approve: true })).status).toBe(404);

  const approved = await post(route, { approve: true, feedback: 'Go ahead.' });
  expect(approved.status).toBe(200);
  expect(await answer(approved)).toMatchObject({ status: 'answered', by: 'user', approve: true });
  const again = await post(route, { approve: false });
  expect(again.status).toBe(409);
  expect(await answer(again)).toMatchObject({ code: 'request-closed' });
  release();
  reviewHold.until = undefined;

  const { events: all } = await streamOf(runId, ended);
  expect(all.filter((event) => event.type === 'team:request-answered').map((event) => event.data)).toEqual([
    { requestId: request.data.requestId, approve: true, feedback: 'Go ahead.', by: 'user' },
  ]);
  expect(all).toContainEqual(
    expect.objectContaining({
      type: 'team:task-completed',
      data: expect.objectContaining({ task: expect.objectContaining({ result: 'Built it.' }) }),
    }),
  );
  expect(all.at(-1)).toMatchObject({ data: { stopReason: 'completed' } });
  const late = await post(route, { approve: true });
  expect(late.status).toBe(409);
  expect((await answer(late)).error).toBe(`The run ${runId} has ended (completed).`);
});

test('shutdown through the API: graceful asks the member, force stops it; bad asks change nothing', async () => {
  const graceful = await start('slow');
  await streamOf(graceful, (event) => event.type === 'team:member-started');
  expect((await post(`/api/runs/${graceful}/shutdown`, { member: 'doer' })).status).toBe(202);
  const { events: asked } = await streamOf(graceful, (event) => event.type === 'team:shutdown-requested');
  expect(asked.at(-1)?.data).toMatchObject({ member: 'doer', force: false });
  await post(`/api/runs/${graceful}/abort`, {});

  const runId = await start('slow');
  await streamOf(runId, (event) => event.type === 'team:member-started');
  const route = `/api/runs/${runId}/shutdown`;
  const bad: [unknown, string, string | undefined][] = [
    [{}, 'member must be a non-empty string', undefined],
    [{ member: 'doer', force: 'yes' }, 'force must be true or false', undefined],
    [{ member: 'doer', now: true }, 'it does not know "now"', undefined],
    [{ member: 'nobody' }, 'its members are doer', 'not-a-member'],
    [{ member: 'planner' }, 'its members are doer', 'not-a-member'],
  ];
  for (const [body, message, code] of bad) {
    const response = await post(route, body);
    expect(response.status).toBe(400);
    const refused = await answer(response);
    expect(refused.error).toContain(message);
    expect(refused.code).toBe(code);
  }
  const forced = await post(route, { member: 'doer', force: true });
  expect(forced.status).toBe(202);
  expect(await answer(forced)).toEqual({ member: 'doer', force: true });
  const { events } = await streamOf(runId, (event) => event.type === 'team:member-shutdown');
  expect(events.filter((event) => event.type === 'team:shutdown-requested')).toHaveLength(1);
  expect(events.at(-1)?.data).toMatchObject({ member: 'doer', force: true });
  const again = await post(route, { member: 'doer' });
  expect(again.status).toBe(409);
  expect((await answer(again)).code).toBe('member-shutdown');
  await post(`/api/runs/${runId}/abort`, {});
  await streamOf(runId, ended);
  const late = await post(route, { member: 'doer' });
  expect(late.status).toBe(409);
  expect((await answer(late)).error).toBe(`The run ${runId} has ended (aborted).`);
});

test('a request of a run of another process is answered through the store', async () => {
  const other = startScript(elsewhere, [root, 'review']);
  const runId = (await other.line(/^review-/)).trim();
  const { events } = await streamOf(runId, opened);
  const { requestId } = (events.at(-1) as TeamEvent<'team:request-opened'>).data;
  const approved = await post(`/api/runs/${runId}/requests/${requestId}`, { approve: true });
  expect(approved.status).toBe(200);
  const { events: all } = await streamOf(runId, ended);
  expect(all.at(-1)).toMatchObject({ data: { stopReason: 'completed' } });
  await other.line(/^done completed$/);
  expect(await other.end()).toBe(0);
}, 60_000);
