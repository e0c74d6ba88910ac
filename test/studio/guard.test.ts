import path from 'node:path';
import { FileStore } from 'agent-teams';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { type StudioStore, studioStoreOf } from '../../src/studio/server/studio-store.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { teams } from './fixtures/studio-teams.js';
import { request, unfinishedRequest } from './helpers/raw-http.js';

// What the Studio refuses before any route runs, over real HTTP: other hosts, pages of other
// origins, bodies over 1 MB. Each refusal changes nothing: the store lists no new run.

let server: StudioServer;
let studio: StudioStore;
const host = () => `127.0.0.1:${server.port}`;
const bearer = () => ({ authorization: `Bearer ${server.token}` });
const json = { 'content-type': 'application/json' };
const start = JSON.stringify({ team: 'slow', input: 'Plan something' });
/** How many runs the store has: a refused request leaves it as it was. */
const runCount = async () => (await studio.listRuns()).length;

beforeAll(async () => {
  studio = studioStoreOf(new FileStore({ root: path.join(tempFolder(), 'store') }));
  server = await startStudio({ teams, studio });
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

  test('a script with the token needs no Origin', async () => {
    const read = await request(server.port, { path: '/api/teams', headers: { ...bearer(), host: host() } });
    expect(read.status).toBe(200);
    const own = await request(server.port, {
      path: '/api/teams',
      headers: { ...bearer(), host: host(), origin: `http://${host()}` },
    });
    expect(own.status).toBe(200);
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
