import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runStatus } from '../../src/store/run-record.js';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { type StudioStore, studioStoreOf } from '../../src/studio/server/studio-store.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { teams } from './fixtures/studio-teams.js';
import { chromiumAvailable, launchChromium } from './helpers/studio-child.js';
import { startRunFromPage } from './helpers/studio-page.js';

// A person has the Studio open in headless Chromium, with a run going; in the same browser, a
// page served by another server on another port of 127.0.0.1 (same site: cookies do not care
// about ports) tries everything a hostile page can to start a run, message and abort. Nothing
// happens, and the hostile server never sees the token or the page's cookie. The Studio ends
// every event stream after half a second here, so the page reconnects all along.

/** Runs in the hostile page: every way a page can send a request to another origin, awaited. */
const ATTACK = `
const params = new URLSearchParams(location.hash.slice(1));
const runId = params.get('run');
const settle = (promise) => promise.then((value) => 'answered ' + value, (error) => 'failed ' + error);

function formPost(url, name, value, enctype) {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.name = 'f' + Math.random().toString(36).slice(2);
    frame.onload = () => resolve('form posted');
    document.body.append(frame);
    const form = document.createElement('form');
    Object.assign(form, { method: 'POST', action: url, enctype, target: frame.name });
    const field = document.createElement('input');
    Object.assign(field, { name, value });
    form.append(field);
    document.body.append(form);
    form.submit();
  });
}

function xhr(url, text) {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    request.setRequestHeader('content-type', 'text/plain');
    request.onloadend = () => resolve('xhr ' + request.status);
    request.send(text);
  });
}

function eventSource(url) {
  return new Promise((resolve) => {
    const source = new EventSource(url, { withCredentials: true });
    source.onmessage = () => { source.close(); resolve('read an event'); };
    source.onerror = () => { source.close(); resolve('stream refused'); };
  });
}

window.attacked = (async () => {
  const results = [];
  for (const api of params.getAll('api')) {
    const posts = [
      [api + '/runs', { team: 'slow', input: 'hostile' }],
      [api + '/runs/' + runId + '/messages', { to: 'planner', content: 'hostile' }],
      [api + '/runs/' + runId + '/abort', { reason: 'hostile' }],
    ];
    for (const [url, body] of posts) {
      const text = JSON.stringify(body);
      const send = (init) => settle(fetch(url, { method: 'POST', credentials: 'include', body: text, ...init }).then((r) => r.status));
      results.push(await send({ mode: 'no-cors', headers: { 'content-type': 'text/plain' } }));
      results.push(await send({ headers: { 'content-type': 'application/json', 'x-studio-csrf': 'guessed' } }));
      results.push(await send({ mode: 'no-cors', keepalive: true })); // what sendBeacon sends
      results.push(await xhr(url, text));
      // A text/plain form sends name=value: cut so that it is the JSON body itself.
      results.push(await formPost(url, text.slice(0, -2), text.slice(-2), 'text/plain'));
      results.push(await formPost(url, 'team', 'slow', 'application/x-www-form-urlencoded'));
    }
    results.push(await settle(fetch(api + '/runs', { credentials: 'include' }).then((r) => r.text())));
    results.push(await eventSource(api + '/runs/' + runId + '/events'));
  }
  results.push('cookie: ' + document.cookie);
  return results;
})();
`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let server: StudioServer;
let studio: StudioStore;
let hostile: Server;
/** Every request the hostile server received. */
const received: { url: string; headers: IncomingHttpHeaders }[] = [];
let runId: string;

// Without Chromium these skip with a warning (and fail under CI): see chromiumAvailable.
describe.skipIf(!chromiumAvailable())('a hostile page beside the Studio, in headless Chromium', () => {
  beforeAll(async () => {
    studio = studioStoreOf(new FileStore({ root: path.join(tempFolder(), 'store') }));
    server = await startStudio({ teams, studio, streamLifetimeMs: 500 });
    hostile = createServer((request, response) => {
      received.push({ url: request.url ?? '', headers: request.headers });
      const script = request.url === '/attack.js';
      response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
      response.end(script ? ATTACK : '<!doctype html><title>cats</title><script src="/attack.js"></script>');
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => hostile?.close(resolve));
    await server?.close();
  });

  test('the person opens the printed URL: a session cookie, HttpOnly and SameSite=Strict, not the token', async () => {
    await page.goto(server.url);
    const pageUrl = new URL(page.url());
    expect(pageUrl.pathname).toMatch(/^\/studio\/[\w-]{22}\/$/);
    expect(page.url()).not.toContain(server.token);
    const cookies = await context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({
        name: 'agent-teams-studio',
        domain: '127.0.0.1',
        path: pageUrl.pathname.slice(0, -1),
        httpOnly: true,
        sameSite: 'Strict',
      }),
    ]);
    expect(cookies[0]?.value).not.toContain(server.token);
    expect(cookies[0]?.value).toMatch(/^[\w-]{43}$/);
    // A going run, started from the page.
    runId = await startRunFromPage(page, server.url, 'slow', 'Plan something');
    await page.locator('[data-agent="planner"]', { hasText: 'working' }).waitFor();
  }, 60_000);

  test('a page on another port of 127.0.0.1 starts, messages and aborts nothing, and never gets the cookie', async () => {
    const studioOrigin = new URL(server.url).origin;
    const pagePath = new URL(page.url()).pathname.slice(0, -1);
    const cookie = (await context.cookies())[0]?.value as string;
    const attacker = await context.newPage();
    /** The Studio's answers to the hostile page, as the browser got them. */
    const answers: number[] = [];
    attacker.on('response', (response) => {
      if (response.url().startsWith(studioOrigin)) answers.push(response.status());
    });
    const hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    // It knows the run, and (as if it had leaked) the page's path, where the browser does send
    // the cookie: there the Origin check and the CSRF token stop it.
    const apis = [`${studioOrigin}/api`, `${studioOrigin}${pagePath}/api`];
    const hash = new URLSearchParams([['run', runId], ...apis.map((api): [string, string] => ['api', api])]);
    await attacker.goto(`${hostileOrigin}/#${hash}`);
    const results = (await attacker.evaluate('window.attacked')) as string[];

    expect(results.filter((result) => result.startsWith('answered 2'))).toEqual([]);
    expect(results.filter((result) => result.includes('"runId"') || result === 'read an event')).toEqual([]);
    expect(results.at(-1)).toBe('cookie: ');
    // Every request that reached the Studio was refused as coming from another origin.
    expect(answers.length).toBeGreaterThan(20);
    expect(new Set(answers)).toEqual(new Set([403]));

    // Nothing happened: one run, going, without a message from anyone but its agents.
    expect((await studio.listRuns()).map((run) => run.runId)).toEqual([runId]);
    const events = await studio.store.readEvents(runId);
    expect(runStatus(events)).toBe('running');
    expect(events.filter((event) => event.type === 'team:message-sent')).toEqual([]);
    expect(await page.getByTestId('status').textContent()).toBe('running');

    // Its server saw its own page load, and never the token or the cookie.
    expect(received.map((request) => request.url)).toContain('/attack.js');
    const seen = JSON.stringify(received);
    expect(seen).not.toContain(server.token);
    expect(seen).not.toContain(cookie);
    await attacker.close();
  }, 60_000);

  test('the person’s page still works: its stream reconnected with Last-Event-ID all along, and Abort stops the run', async () => {
    const resumedFrom: (string | null)[] = [];
    page.on('request', async (request) => {
      if (request.url().endsWith(`/runs/${encodeURIComponent(runId)}/events`))
        resumedFrom.push(await request.headerValue('last-event-id'));
    });
    // Each stream ends after half a second; the page asks again, after the last event it has.
    await expect.poll(() => resumedFrom.length, { timeout: 20_000 }).toBeGreaterThan(1);
    const seqs = (await studio.store.readEvents(runId)).map((event) => String(event.seq));
    expect(resumedFrom.every((id) => id !== null && seqs.includes(id))).toBe(true);

    await page.getByRole('button', { name: 'Abort' }).click();
    await page.locator('main[data-status="aborted"]').waitFor();
    const all = await studio.store.readEvents(runId);
    expect(runStatus(all)).toBe('aborted');
    // Every event of the log is on the page, once.
    await expect
      .poll(() => page.getByTestId('position').textContent())
      .toMatch(new RegExp(`^event ${all.length} / ${all.length} ·`));
  }, 60_000);
});
