import path from 'node:path';
import { FileStore } from 'agent-teams';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { type StudioStore, studioStoreOf } from '../../src/studio/server/studio-store.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { teams } from './fixtures/studio-teams.js';
import { request, unfinishedRequest } from './helpers/raw-http.js';
import { readStream, readToEnd } from './helpers/sse.js';

// What the Studio refuses before any route runs, over real HTTP: other hosts, pages of other
// origins, changes by the page's cookie without its CSRF token, bodies over 1 MB, event
// streams past 32 per client. Each refusal changes nothing: the store lists no new run.

let server: StudioServer;
let studio: StudioStore;
let root: string;
/** A run of the slow team: it goes until it is aborted. */
let runId: string;
const host = () => `127.0.0.1:${server.port}`;
const bearer = () => ({ authorization: `Bearer ${server.token}` });
const json = { 'content-type': 'application/json' };
const start = JSON.stringify({ team: 'slow', input: 'Plan something' });
/** How many runs the store has: a refused request leaves it as it was. */
const runCount = async () => (await studio.listRuns()).length;

/** Opens the printed URL as a browser does: answers the redirect and the session cookie it sets. */
async function openPage() {
  const opened = await fetch(server.url, { redirect: 'manual' });
  const setCookie = opened.headers.get('set-cookie') ?? '';
  return {
    status: opened.status,
    location: opened.headers.get('location') ?? '',
    setCookie,
    cookie: setCookie.split(';')[0] as string,
  };
}

beforeAll(async () => {
  root = path.join(tempFolder(), 'store');
  studio = studioStoreOf(new FileStore({ root }));
  server = await startStudio({ teams, studio });
  const started = await fetch(new URL('/api/runs', server.url), {
    method: 'POST',
    headers: { ...bearer(), ...json },
    body: start,
  });
  runId = ((await started.json()) as { runId: string }).runId;
});
afterAll(() => server.close());

describe('the host', () => {
  test('a request for another host (DNS rebinding) is refused with 403 and changes nothing', async () => {
    const before = await runCount();
    for (const foreign of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      '127.0.0.1',
    ]) {
      const read = await request(server.port, { path: '/api/runs', headers: { ...bearer(), host: foreign } });
      expect(read.status).toBe(403);
      expect(JSON.parse(read.text)).toEqual({
        error: `Refused: the Studio does not answer to the host "${foreign}".`,
      });
      const started = await request(server.port, {
        method: 'POST',
        path: '/api/runs',
        headers: { ...bearer(), ...json, host: foreign },
        body: start,
      });
      expect(started.status).toBe(403);
    }
    // Without the token too: the page itself is not served to a rebound name.
    const page = await request(server.port, {
      path: `/?token=${server.token}`,
      headers: { host: 'evil.example' },
    });
    expect(page.status).toBe(403);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(await runCount()).toBe(before);
  });

  test('the loopback names with the Studio’s port are its own', async () => {
    for (const own of [
      host(),
      `localhost:${server.port}`,
      `LOCALHOST:${server.port}`,
      `[::1]:${server.port}`,
    ]) {
      const read = await request(server.port, { path: '/api/teams', headers: { ...bearer(), host: own } });
      expect(read.status).toBe(200);
    }
  });
});

describe('the origin', () => {
  test('a request from a page of another origin is refused with 403, with the token or without', async () => {
    const before = await runCount();
    for (const origin of [`http://127.0.0.1:${server.port + 1}`, 'http://evil.example', 'null']) {
      const started = await request(server.port, {
        method: 'POST',
        path: '/api/runs',
        headers: { ...bearer(), ...json, host: host(), origin },
        body: start,
      });
      expect(started.status).toBe(403);
      expect(JSON.parse(started.text).error).toBe(`Refused: a page of ${origin} may not call the Studio.`);
      const read = await request(server.port, {
        path: '/api/runs',
        headers: { ...bearer(), host: host(), origin },
      });
      expect(read.status).toBe(403);
    }
    expect(await runCount()).toBe(before);
  });

  test('a script with the token needs no Origin and no CSRF token', async () => {
    const read = await request(server.port, { path: '/api/teams', headers: { ...bearer(), host: host() } });
    expect(read.status).toBe(200);
    const own = await request(server.port, {
      path: '/api/teams',
      headers: { ...bearer(), host: host(), origin: `http://${host()}` },
    });
    expect(own.status).toBe(200);
  });
});

describe('the session', () => {
  test('the printed URL trades the token for a session cookie and sends the browser to the page', async () => {
    const opened = await openPage();
    expect(opened.status).toBe(303);
    expect(opened.location).toMatch(/^\/studio\/[\w-]{22}\/$/);
    const pagePath = opened.location.slice(0, -1);
    expect(opened.setCookie).toMatch(
      new RegExp(`^agent-teams-studio=[\\w-]{43}; Path=${pagePath}; HttpOnly; SameSite=Strict$`),
    );
    // The cookie is a session of this launch, not the token, and not the one of another opening.
    expect(opened.setCookie).not.toContain(server.token);
    expect(opened.location).not.toContain(server.token);
    expect((await openPage()).cookie).not.toBe(opened.cookie);

    const page = await fetch(new URL(opened.location, server.url), { headers: { cookie: opened.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(
      new RegExp(`<base href="${pagePath}/" />\\s*<meta name="studio-csrf" content="[\\w-]{43}" />`),
    );
    expect((await fetch(new URL(opened.location, server.url))).status).toBe(401);
    const made = await fetch(new URL(opened.location, server.url), {
      headers: { cookie: 'agent-teams-studio=made-up' },
    });
    expect(made.status).toBe(401);
    expect(await made.text()).toBe('');
  });

  test('a change asked for with the cookie needs the page’s Origin and its CSRF token', async () => {
    const before = await runCount();
    const opened = await openPage();
    const html = await (
      await fetch(new URL(opened.location, server.url), { headers: { cookie: opened.cookie } })
    ).text();
    const csrf = html.match(/<meta name="studio-csrf" content="([\w-]+)"/)?.[1] as string;
    const route = `${opened.location}api/runs`;
    const post = (headers: Record<string, string>) =>
      request(server.port, {
        method: 'POST',
        path: route,
        headers: { ...json, cookie: opened.cookie, host: host(), ...headers },
        body: start,
      });
    const refusals: [Record<string, string>, string][] = [
      [{ 'x-studio-csrf': csrf }, 'must carry its Origin'],
      [{ origin: `http://${host()}` }, 'must carry its X-Studio-CSRF header'],
      [{ origin: `http://${host()}`, 'x-studio-csrf': 'forged' }, 'must carry its X-Studio-CSRF header'],
      [{ origin: `http://127.0.0.1:${server.port + 1}`, 'x-studio-csrf': csrf }, 'may not call the Studio'],
    ];
    for (const [headers, reason] of refusals) {
      const refused = await post(headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).error).toContain(reason);
    }
    expect(await runCount()).toBe(before);
    // Reads need neither: the page's own GETs carry no Origin.
    const read = await request(server.port, {
      path: route,
      headers: { cookie: opened.cookie, host: host() },
    });
    expect(read.status).toBe(200);
    const aborted = await request(server.port, {
      method: 'POST',
      path: `${opened.location}api/runs/${runId}/abort`,
      headers: {
        ...json,
        cookie: opened.cookie,
        host: host(),
        origin: `http://${host()}`,
        'x-studio-csrf': csrf,
      },
      body: '{}',
    });
    expect(aborted.status).toBe(202);
    await readStream(new URL(`/api/runs/${runId}/events`, server.url).href, {
      headers: bearer(),
      until: (event) => event.type === 'team:complete',
    });
    // Started again for the tests below, by the page's way.
    const restarted = await post({ origin: `http://${host()}`, 'x-studio-csrf': csrf });
    expect(restarted.status).toBe(201);
    runId = JSON.parse(restarted.text).runId;
  });
});

describe('bodies', () => {
  const big = JSON.stringify({ team: 'slow', input: 'x'.repeat(2 * 1024 * 1024) });
  const tooLarge = 'POST /api/runs takes a body of at most 1 MB; this one is larger.';
  const runs = () => new URL('/api/runs', server.url);

  test('a body over 1 MB gets 413 and starts nothing, with Content-Length or chunked', async () => {
    const before = await runCount();
    const declared = await fetch(runs(), { method: 'POST', headers: { ...bearer(), ...json }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: tooLarge });
    const chunks = new ReadableStream({
      start(controller) {
        for (let at = 0; at < big.length; at += 64 * 1024)
          controller.enqueue(Buffer.from(big.slice(at, at + 64 * 1024)));
        controller.close();
      },
    });
    const chunked = await fetch(runs(), {
      method: 'POST',
      headers: { ...bearer(), ...json },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: tooLarge });
    expect(await runCount()).toBe(before);
  });

  test('the 413 comes before the body is all there: the Studio does not wait for the rest', async () => {
    const before = await runCount();
    const head = [`POST /api/runs HTTP/1.1`, `Host: ${host()}`, `Authorization: Bearer ${server.token}`];
    // Declared as 100 MB; only 64 KB of it is ever sent.
    const declared = await unfinishedRequest(
      server.port,
      [...head, 'Content-Length: 104857600'].join('\r\n'),
      [Buffer.alloc(64 * 1024, 'x')],
    );
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    // Chunked, no length: 1.25 MB of chunks, and the body never ends.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const chunks = Array.from({ length: 20 }, () =>
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
    );
    const chunked = await unfinishedRequest(
      server.port,
      [...head, 'Transfer-Encoding: chunked'].join('\r\n'),
      chunks,
    );
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.text)).toEqual({ error: tooLarge });
    expect(await runCount()).toBe(before);
  });

  test('an unknown key is a 400 that names it and the keys the route knows', async () => {
    const refused = await fetch(runs(), {
      method: 'POST',
      headers: { ...bearer(), ...json },
      body: JSON.stringify({ team: 'slow', input: 'x', fresh: true, priority: 1 }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'POST /api/runs takes { team, input }; it does not know "fresh", "priority".',
    });
  });
});

describe('event streams', () => {
  const events = () => new URL(`/api/runs/${runId}/events`, server.url);
  const open = (headers: Record<string, string>) => {
    const controller = new AbortController();
    return fetch(events(), { headers, signal: controller.signal }).then((response) => ({
      response,
      controller,
    }));
  };

  test('a client holds at most 32 streams: the 33rd gets 429; a closed one frees its place', async () => {
    const held = await Promise.all(Array.from({ length: 32 }, () => open(bearer())));
    expect(held.map(({ response }) => response.status)).toEqual(Array(32).fill(200));
    const refused = await fetch(events(), { headers: bearer() });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'At most 32 event streams may be open at once; this client has that many.',
    });
    // Another client (a session of the page) has places of its own.
    const { cookie } = await openPage();
    const session = await open({ cookie });
    expect(session.response.status).toBe(200);
    session.controller.abort();

    (held.pop() as (typeof held)[number]).controller.abort();
    // The Studio frees the place once it sees the connection closed.
    await expect
      .poll(async () => {
        const again = await open(bearer());
        if (again.response.status === 200) held.push(again);
        else await again.response.body?.cancel();
        return again.response.status;
      })
      .toBe(200);
    for (const { controller } of held) controller.abort();
  });

  test('a stream ends by itself after its lifetime; resumed with Last-Event-ID it goes on after it', async () => {
    const store = new FileStore({ root });
    const short = await startStudio({ teams: {}, studio: studioStoreOf(store), streamLifetimeMs: 300 });
    try {
      const url = new URL(`/api/runs/${runId}/events`, short.url).href;
      const headers = { authorization: `Bearer ${short.token}` };
      const first = await readToEnd(url, { headers });
      expect(first.text.startsWith('retry: 1000\n\n')).toBe(true);
      expect(first.events.length).toBeGreaterThan(2);
      const resumed = await readToEnd(url, {
        headers: { ...headers, 'last-event-id': first.ids.at(-3) as string },
      });
      expect(resumed.events).toEqual(first.events.slice(-2));
    } finally {
      await short.close();
      await store.close();
    }
  });
});
