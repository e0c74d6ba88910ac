import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { startScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { NUDGE, teams } from './fixtures/studio-teams.js';
import { readStream } from './helpers/sse.js';

// `POST /api/runs/:runId/resume`: the Studio continues a run whose process died, or that was
// aborted, in its own process, as `agent-teams resume` does.

const elsewhere = fileURLToPath(new URL('./fixtures/run-elsewhere.ts', import.meta.url));

let server: StudioServer;
let root: string;
const api = (route: string) => new URL(route, server.url).href.replace(/\?.*$/, '');
const auth = () => ({ authorization: `Bearer ${server.token}` });
const post = (route: string, body: unknown, headers: Record<string, string> = auth()) =>
  fetch(api(route), {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
const get = async (route: string) => (await fetch(api(route), { headers: auth() })).json();
const until = (runId: string, done: (event: TeamEvent, all: TeamEvent[]) => boolean) =>
  readStream(api(`/api/runs/${runId}/events`), { headers: auth(), until: done });

beforeAll(async () => {
  root = path.join(tempFolder(), 'store');
  server = await startStudio({ teams, studio: studioStoreOf(new FileStore({ root })) });
});
afterAll(() => server.close());

test('a run whose process died is resumed by the Studio: it goes on there and ends with its answer', async () => {
  const other = startScript(elsewhere, [root]);
  const runId = (await other.line(/^newsroom-demo-/)).trim();
  // The checker waits for the person's word to the writer: the run is surely going when it dies.
  await until(runId, (event) => event.type === 'team:member-started' && event.data.member === 'checker');
  other.child.kill('SIGKILL');
  await other.end();
  expect(await get(`/api/runs/${runId}`)).toMatchObject({ runId, status: 'interrupted' });

  // The page's cookie without the page's CSRF token resumes nothing.
  const opened = await fetch(server.url, { redirect: 'manual' });
  const page = new URL(opened.headers.get('location') ?? '', server.url);
  const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? '';
  const forged = await fetch(new URL(`api/runs/${runId}/resume`, page), {
    method: 'POST',
    headers: { cookie, origin: new URL(server.url).origin, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(forged.status).toBe(403);
  expect(await get(`/api/runs/${runId}`)).toMatchObject({ status: 'interrupted' });

  const resumed = await post(`/api/runs/${runId}/resume`, {});
  expect(resumed.status).toBe(202);
  expect(await resumed.json()).toEqual({ runId, resumed: true });
  expect(await get(`/api/runs/${runId}`)).toMatchObject({
    status: 'running',
    runner: { pid: process.pid },
  });
  // A second resume of a run that goes is refused, and starts nothing.
  const twice = await post(`/api/runs/${runId}/resume`, {});
  expect(twice.status).toBe(409);
  expect(await errorOf(twice)).toBe(`The run ${runId} is running: there is nothing to resume.`);

  expect((await post(`/api/runs/${runId}/messages`, { to: 'writer', content: NUDGE })).status).toBe(201);
  const { events } = await until(runId, (event) => event.type === 'team:complete');
  const complete = events.findLast((event) => event.type === 'team:complete');
  expect(events.filter((event) => event.type === 'team:resumed')).toHaveLength(1);
  expect(complete).toMatchObject({ data: { stopReason: 'completed' } });
  // The final answer is in the log: the editor's last reply.
  const editor = events.findLast(
    (event) => event.type === 'team:member-finished' && event.data.member === 'editor',
  );
  expect(editor?.type === 'team:member-finished' && editor.data.output).toBeTruthy();
  expect(complete?.type === 'team:complete' && complete.data.output).toBe(
    editor?.type === 'team:member-finished' && editor.data.output,
  );

  const done = await post(`/api/runs/${runId}/resume`, {});
  expect(done.status).toBe(409);
  expect(await errorOf(done)).toBe(`The run ${runId} finished (completed): start a new run instead.`);
}, 60_000);

test('an aborted run is resumed from the API with the same input, and only the team’s last run', async () => {
  const start = async () => {
    const started = await post('/api/runs', { team: 'slow', input: 'Plan something' });
    const { runId } = (await started.json()) as { runId: string };
    await until(runId, (event) => event.type === 'team:member-started');
    expect((await post(`/api/runs/${runId}/abort`, {})).status).toBe(202);
    await until(runId, (event) => event.type === 'team:complete');
    return runId;
  };
  const first = await start();
  expect(await get(`/api/runs/${first}`)).toMatchObject({ status: 'aborted' });
  // A newer run of the team: the older one can no longer go on.
  const second = await start();
  const stale = await post(`/api/runs/${first}/resume`, {});
  expect(stale.status).toBe(409);
  expect(await errorOf(stale)).toBe(
    `The run ${first} is no longer its team's last run: only that one can go on.`,
  );
  expect((await post(`/api/runs/${second}/resume`, { fresh: true })).status).toBe(400);
  const resumed = await post(`/api/runs/${second}/resume`, {});
  expect(resumed.status).toBe(202);
  // The same run goes on from the same input, and ends (the lead planned nothing before its abort).
  const { events } = await until(
    second,
    (_, all) => all.filter((event) => event.type === 'team:complete').length === 2,
  );
  expect(events.map((event) => event.type)).toContain('team:resumed');
  expect(events.filter((event) => event.type === 'team:start')).toEqual([
    expect.objectContaining({ data: expect.objectContaining({ input: 'Plan something' }) }),
  ]);
  expect(events.at(-1)).toMatchObject({ data: { stopReason: 'no-tasks' } });
  expect(await get(`/api/runs/${first}`)).toMatchObject({ status: 'aborted' });
  const missing = await post('/api/runs/slow-no-such-run/resume', {});
  expect(missing.status).toBe(404);
  const unknown = await fetch(api('/api/runs/slow-no-such-run'), { headers: auth() });
  expect(unknown.status).toBe(404);
  expect(await errorOf(unknown)).toBe('No run slow-no-such-run in the store.');
}, 60_000);
