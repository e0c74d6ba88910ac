import { Hono, type MiddlewareHandler } from 'hono';
import { authenticate, type StudioAccess, type StudioEnv } from './access.js';
import { refuseForeign } from './addresses.js';
import { ApiError, errorResponse } from './api-error.js';
import type { Asset } from './assets.js';
import {
  abortBody,
  answerBody,
  emptyBody,
  interruptBody,
  memberBody,
  messageBody,
  shutdownBody,
  startBody,
} from './bodies.js';
import { eventStream, resumeAfter, StreamPlaces } from './event-stream.js';
import type { StudioRuns } from './studio-runs.js';
import type { StudioStore } from './studio-store.js';
import { taskRoutes } from './task-routes.js';

export interface StudioAppOptions {
  /** The launch's token, sessions, CSRF token and the page's path. */
  readonly access: StudioAccess;
  /** The hosts (with the port) it answers to: known once it listens. */
  readonly hosts: () => ReadonlySet<string>;
  readonly studio: StudioStore;
  readonly runs: StudioRuns;
  /** The built page; without it, the page's path says how to build it. */
  readonly assets: ReadonlyMap<string, Asset> | undefined;
  /** How long an event stream lives before the Studio ends it (an EventSource reconnects). */
  readonly streamLifetimeMs: number;
}

/** Headers every answer carries: no page may frame the Studio's, and none learns its address from a Referer. */
const guardHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('referrer-policy', 'no-referrer');
  c.res.headers.set('content-security-policy', "frame-ancestors 'none'");
  c.res.headers.set('x-content-type-options', 'nosniff');
};

/**
 * The Studio's HTTP API and page. Every request is checked, in this order, before any route
 * runs: its host and origin (`addresses.ts`), then its token or session (`access.ts`). Scripts
 * call the API at `/api`; the page lives under its own path and calls the same API there,
 * where its cookie goes. The page uses the API and nothing else, so a script can do whatever
 * it does.
 */
export function studioApp(options: StudioAppOptions): Hono<StudioEnv> {
  const { access } = options;
  const app = new Hono<StudioEnv>();
  app.onError((error, c) => errorResponse(error, c.req.raw));
  app.use('*', guardHeaders);
  app.use('*', refuseForeign(options.hosts));
  app.use('*', authenticate(access));
  const places = new StreamPlaces();
  for (const base of ['/api', `${access.pagePath}/api`]) apiRoutes(app.basePath(base), options, places);

  const index = options.assets && pageIndex(options.assets.get('/index.html') as Asset, access);
  app.get(`${access.pagePath}/*`, (c) => {
    // The token must not stay in the address (nor in the browser's history).
    if (c.req.query('token') !== undefined) return access.openPage(c);
    if (!options.assets || !index) {
      return c.text('The Studio page is not built: run `npm run build` in the agent-teams package.', 503);
    }
    // Every path that is not a file of the page is the page: it routes itself (#/runs/…).
    const asset = options.assets.get(c.req.path.slice(access.pagePath.length)) ?? index;
    return c.body(new Uint8Array(asset.body), 200, { 'content-type': asset.type });
  });
  // Any other path is the printed URL's: its token is traded for a session of the page.
  app.get('*', (c) =>
    c.get('caller').kind === 'token' ? access.openPage(c) : c.redirect(`${access.pagePath}/`, 303),
  );
  app.all('*', (c) => {
    throw new ApiError(404, `No route ${c.req.method} ${c.req.path}.`);
  });
  return app;
}

/**
 * The page's HTML as this launch serves it: its relative addresses resolve under the page's
 * path, and it carries the CSRF token, which only a page of the Studio's own origin can read.
 */
function pageIndex(index: Asset, access: StudioAccess): Asset {
  const head = `<head>\n    <base href="${access.pagePath}/" />\n    <meta name="studio-csrf" content="${access.csrf}" />`;
  return { type: index.type, body: Buffer.from(index.body.toString('utf8').replace('<head>', head)) };
}

function apiRoutes(api: Hono<StudioEnv>, options: StudioAppOptions, places: StreamPlaces): void {
  const { studio, runs } = options;
  api.get('/teams', (c) => c.json(runs.teams()));
  api.get('/runs', async (c) => c.json(await studio.listRuns()));
  api.post('/runs', async (c) => {
    const { team, input } = await startBody(c.req.raw);
    return c.json({ runId: await runs.start(team, input) }, 201);
  });
  api.get('/runs/:runId', async (c) => {
    const summary = await studio.summaryOf(c.req.param('runId'));
    if (!summary) throw new ApiError(404, `No run ${c.req.param('runId')} in the store.`);
    return c.json(summary);
  });
  api.get('/runs/:runId/events', async (c) => {
    const runId = c.req.param('runId');
    const record = await studio.findRun(runId);
    if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
    const caller = c.get('caller');
    const release = places.take(caller.kind === 'token' ? 'token' : `session ${caller.id}`);
    const afterSeq = resumeAfter(c.req.header('last-event-id'));
    return eventStream(
      c,
      studio.store,
      { runId, team: record.team, afterSeq },
      {
        lifetimeMs: options.streamLifetimeMs,
        release,
        watch: (listener) => runs.watch(runId, listener),
      },
    );
  });
  api.post('/runs/:runId/resume', async (c) => {
    await emptyBody(c.req.raw, 'POST /api/runs/:runId/resume');
    const runId = c.req.param('runId');
    await runs.resume(runId);
    return c.json({ runId, resumed: true }, 202);
  });
  api.post('/runs/:runId/messages', async (c) => {
    const { to, content } = await messageBody(c.req.raw);
    return c.json(await runs.send(c.req.param('runId'), to, content), 201);
  });
  api.post('/runs/:runId/inbox/read', async (c) => {
    await emptyBody(c.req.raw, 'POST /api/runs/:runId/inbox/read');
    return c.json({ messages: await runs.readInbox(c.req.param('runId')) });
  });
  api.post('/runs/:runId/requests/:requestId', async (c) => {
    const { approve, feedback, always } = await answerBody(c.req.raw);
    const answer = {
      approve,
      ...(feedback === undefined ? {} : { feedback }),
      ...(always === undefined ? {} : { always }),
    };
    return c.json(await runs.respond(c.req.param('runId'), c.req.param('requestId'), answer));
  });
  api.post('/runs/:runId/interrupt', async (c) => {
    const { member, message } = await interruptBody(c.req.raw);
    return c.json(await runs.interrupt(c.req.param('runId'), member, message), 202);
  });
  api.post('/runs/:runId/shutdown', async (c) => {
    const { member, force = false } = await shutdownBody(c.req.raw);
    await runs.shutdown(c.req.param('runId'), member, force);
    return c.json({ member, force }, 202);
  });
  api.post('/runs/:runId/members', async (c) => {
    const member = await memberBody(c.req.raw);
    return c.json(await runs.addMember(c.req.param('runId'), member), 201);
  });
  api.delete('/runs/:runId/members/:name', async (c) => {
    await runs.removeMember(c.req.param('runId'), c.req.param('name'));
    return c.json({ member: c.req.param('name'), removed: true });
  });
  api.post('/runs/:runId/abort', async (c) => {
    const { reason } = await abortBody(c.req.raw);
    await runs.abort(c.req.param('runId'), reason);
    return c.json({ aborting: true }, 202);
  });
  taskRoutes(api, studio, (team) => runs.hooksOf(team));
  api.all('*', (c) => {
    throw new ApiError(404, `No route ${c.req.method} ${c.req.path}.`);
  });
}
