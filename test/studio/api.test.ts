import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { startScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { NUDGE, teams } from './fixtures/studio-teams.js';
import { readStream } from './helpers/sse.js';

const elsewhere = fileURLToPath(new URL('./fixtures/run-elsewhere.ts', import.meta.url));

let server: StudioServer;
let root: string;
const api = (route: string) => new URL(route, server.url).href.replace(/\?.*$/, '');
const auth = () => ({ authorization: `Bearer ${server.token}` });
/** The fields the API's answers carry. */
interface Answer {
  runId: string;
  error: string;
  code: string;
  to: string[];
}
const answer = async (response: Response) => (await response.json()) as Answer;
const post = (route: string, body: unknown) =>
  fetch(api(route), {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = async (route: string) => (await fetch(api(route), { headers: auth() })).json();

beforeAll(async () => {
  root = path.join(tempFolder(), 'store');
  server = await startStudio({ teams, studio: studioStoreOf(new FileStore({ root })) });
});
afterAll(() => server.close());

describe('the token', () => {
  test('the printed URL is on 127.0.0.1 with the token', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[\\w-]{43}$`));
  });

  test('a request without it, or with another, gets a bare 401', async () => {
    for (const route of ['/', '/api/teams', '/api/runs', '/assets/index.js', '/api/runs/x/events']) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const response = await fetch(api(route), { headers });
        expect(response.status).toBe(401);
        expect(await response.text()).toBe('');
      }
    }
    const forged = await fetch(api('/api/runs'), { method: 'POST', body: '{"team":"slow","input":"x"}' });
    expect(forged.status).toBe(401);
    expect(await get('/api/runs')).toEqual([]);
  });

  test('?token= lets the page in: a session cookie for the page’s own path, which lets its files in', async () => {
    const opened = await fetch(server.url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const page = new URL(opened.headers.get('location') ?? '', server.url);
    const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect(cookie).not.toContain(server.token);
    const html = await fetch(page, { headers: { cookie } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(new URL('api/teams', page), { headers: { cookie } })).status).toBe(200);
  });
});

test('GET /api/teams: the file’s teams, with each agent’s turn limit', async () => {
  expect(await get('/api/teams')).toEqual([
    {
      name: 'newsroom-demo',
      lead: { name: 'editor', maxTurns: 6 },
      members: [
        { name: 'researcher', description: 'Finds facts and sources', maxTurns: 6 },
        { name: 'writer', description: 'Writes clear prose', maxTurns: 6 },
        { name: 'checker', description: 'Checks facts', maxTurns: 6 },
      ],
    },
    {
      name: 'slow',
      lead: { name: 'planner', maxTurns: 6 },
      members: [{ name: 'doer', description: '', maxTurns: 8 }],
    },
    {
      name: 'review',
      lead: { name: 'boss', maxTurns: 1 },
      members: [{ name: 'builder', description: '', maxTurns: 8 }],
    },
    {
      name: 'workshop',
      lead: { name: 'foreman', maxTurns: 6 },
      members: [{ name: 'carpenter', description: '', maxTurns: 8 }],
    },
    {
      name: 'chat',
      lead: { name: 'host', maxTurns: 6 },
      members: [{ name: 'guest', description: '', maxTurns: 8 }],
    },
  ]);
});

test('bad bodies get a 400 that says what is wrong, and start nothing', async () => {
  const cases: [unknown, string][] = [
    ['not json', 'the body is not JSON'],
    [[1], 'takes a JSON object'],
    [{ team: 'slow' }, 'input must be a non-empty string'],
    [{ team: 'slow', input: '  ' }, 'input must be a non-empty string'],
    [{ team: 'slow', input: 'x', fresh: true }, 'it does not know "fresh"'],
    [
      { team: 'nobody', input: 'x' },
      'No team "nobody" in the Studio\'s file; its teams: newsroom-demo, slow, review, workshop, chat',
    ],
  ];
  for (const [body, message] of cases) {
    const response = await post('/api/runs', body);
    expect(response.status).toBe(400);
    expect((await answer(response)).error).toContain(message);
  }
  expect(await get('/api/runs')).toEqual([]);
  const unknown = await post('/api/runs/no-such-run/messages', { to: 'writer', content: 'hi' });
  expect(unknown.status).toBe(404);
  const stream = await fetch(api('/api/runs/no-such-run/events'), { headers: auth() });
  expect(stream.status).toBe(404);
  expect((await answer(stream)).error).toBe('No run no-such-run in the store.');
});

test('a run started through the API streams every event, takes a message to a member, and ends', async () => {
  const started = await post('/api/runs', { team: 'newsroom-demo', input: 'Write about tides' });
  expect(started.status).toBe(201);
  const { runId } = await answer(started);
  const events = api(`/api/runs/${runId}/events`);
  const nudge = async () => {
    const badTo = await post(`/api/runs/${runId}/messages`, { to: 'nobody', content: NUDGE });
    expect(badTo.status).toBe(400);
    expect((await answer(badTo)).code).toBe('unknown-recipient');
    const sent = await post(`/api/runs/${runId}/messages`, { to: 'writer', content: NUDGE });
    expect(sent.status).toBe(201);
    expect((await answer(sent)).to).toEqual(['writer']);
  };
  // The checker waits for the writer to hear from the person: the run is surely going when
  // task-4 is claimed. The message goes from there, on one stream open from the start: live
  // text is never logged, so a stream opened after the message could miss the writer's answer.
  let nudged: Promise<void> | undefined;
  const { events: all, ids } = await readStream(events, {
    headers: auth(),
    until: (e) => {
      if (e.type === 'team:task-claimed' && e.data.task.id === 'task-4') nudged ??= nudge();
      return e.type === 'team:complete';
    },
  });
  await nudged;
  // The log's events, each with its seq as its id; the live text of this Studio's run between them.
  const logged = all.filter((event) => event.type !== 'team:text-delta');
  expect(ids.filter((_, index) => all[index]?.type !== 'team:text-delta')).toEqual(
    logged.map((event) => String(event.seq)),
  );
  expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
  expect(logged.at(-1)).toMatchObject({ type: 'team:complete', data: { stopReason: 'completed' } });
  const streamed = all.flatMap((event, index) => (event.type === 'team:text-delta' ? [index] : []));
  expect(streamed.length).toBeGreaterThan(0);
  for (const index of streamed) {
    // Never logged, so no id; never before the event it followed.
    expect(ids[index]).toBe('');
    expect(all.slice(0, index).some((event) => event.seq === (all[index] as TeamEvent).seq)).toBe(true);
  }
  // The writer's answer to the person streamed as the model wrote it, in order.
  const writer = all.flatMap((event) =>
    event.type === 'team:text-delta' && event.data.agent === 'writer' ? [event.data.delta] : [],
  );
  expect(writer.join('')).toContain('Noted: metric units throughout.');
  expect(all).toContainEqual(
    expect.objectContaining({
      type: 'team:message-sent',
      data: expect.objectContaining({ from: 'user', content: NUDGE }),
    }),
  );
  expect(all).toContainEqual(
    expect.objectContaining({
      type: 'team:member-started',
      data: expect.objectContaining({ member: 'writer', reason: 'message' }),
    }),
  );

  // Last-Event-ID resumes after the event it names.
  const resumed = await readStream(events, {
    headers: { ...auth(), 'last-event-id': '5' },
    until: () => true,
  });
  expect(resumed.events[0]?.seq).toBe(6);

  const late = await post(`/api/runs/${runId}/messages`, { to: 'writer', content: 'too late' });
  expect(late.status).toBe(409);
  expect((await answer(late)).error).toBe(`The run ${runId} has ended (completed).`);
  const runs = await get('/api/runs');
  expect(runs).toContainEqual(expect.objectContaining({ runId, team: 'newsroom-demo', status: 'completed' }));
});

test('abort from the API ends a run with aborted', async () => {
  const { runId } = await answer(await post('/api/runs', { team: 'slow', input: 'Plan something' }));
  const events = api(`/api/runs/${runId}/events`);
  await readStream(events, { headers: auth(), until: (event) => event.type === 'team:member-started' });
  expect((await post(`/api/runs/${runId}/abort`, { reason: 7 })).status).toBe(400);
  expect((await post(`/api/runs/${runId}/abort`, {})).status).toBe(202);
  const { events: all } = await readStream(events, {
    headers: auth(),
    until: (e) => e.type === 'team:complete',
  });
  expect(all.at(-1)).toMatchObject({ data: { stopReason: 'aborted' } });
  const again = await post(`/api/runs/${runId}/abort`, {});
  expect(again.status).toBe(409);
  expect((await answer(again)).error).toBe(`The run ${runId} has ended (aborted).`);
});

test('a run of another process is listed, streamed live, and hears a message sent from the Studio', async () => {
  const other = startScript(elsewhere, [root]);
  const runId = (await other.line(/^newsroom-demo-/)).trim();
  const events = api(`/api/runs/${runId}/events`);
  await readStream(events, {
    headers: auth(),
    until: (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-4',
  });
  expect(await get('/api/runs')).toContainEqual(
    expect.objectContaining({
      runId,
      status: 'running',
      runner: expect.objectContaining({ pid: other.child.pid }),
    }),
  );
  expect((await post(`/api/runs/${runId}/messages`, { to: 'writer', content: NUDGE })).status).toBe(201);
  const { events: all } = await readStream(events, {
    headers: auth(),
    until: (e) => e.type === 'team:complete',
  });
  expect(all.at(-1)).toMatchObject({ data: { stopReason: 'completed' } });
  await other.line(/^done completed$/);
  expect(await other.end()).toBe(0);
}, 60_000);
