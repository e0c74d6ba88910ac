import { Hono } from 'hono';
import { requireToken } from './access.js';
import { refuseForeign } from './addresses.js';
import { ApiError, errorResponse } from './api-error.js';
import type { Asset } from './assets.js';
import { abortBody, answerBody, messageBody, shutdownBody, startBody } from './bodies.js';
import { eventStream, resumeAfter } from './event-stream.js';
import type { StudioRuns } from './studio-runs.js';
import type { StudioStore } from './studio-store.js';

export interface StudioAppOptions {
  readonly token: string;
  /** The port it listens on (known once it listens): the cookie is named for it. */
  readonly port: () => number;
  /** The hosts (with the port) it answers to: known once it listens. */
  readonly hosts: () => ReadonlySet<string>;
  readonly studio: StudioStore;
  readonly runs: StudioRuns;
  /** The built page; without it, `/` says how to build it. */
  readonly assets: ReadonlyMap<string, Asset> | undefined;
}

/**
 * The Studio's HTTP API and page. Every request is checked, in this order, before any route
 * runs: its host and origin (`addresses.ts`), then the launch's token (`access.ts`). The page
 * uses the API and nothing else, so whatever it shows or does, a script can too.
 */
export function studioApp(options: StudioAppOptions): Hono {
  const { studio, runs } = options;
  const app = new Hono();
  app.onError((error, c) => errorResponse(error, c.req.raw));
  app.use('*', refuseForeign(options.hosts));
  app.use('*', requireToken(options.token, options.port));

  app.get('/api/teams', (c) => c.json(runs.teams()));
  app.get('/api/runs', async (c) => c.json(await studio.listRuns()));
  app.post('/api/runs', async (c) => {
    const { team, input } = await startBody(c.req.raw);
    return c.json({ runId: await runs.start(team, input) }, 201);
  });
  app.get('/api/runs/:runId/events', async (c) => {
    const runId = c.req.param('runId');
    const record = await studio.findRun(runId);
    if (!record) throw new ApiError(404, `No run ${runId} in the store.`);
    return eventStream(
      c,
      studio.store,
      { runId, team: record.team },
      resumeAfter(c.req.header('last-event-id')),
    );
  });
  app.post('/api/runs/:runId/messages', async (c) => {
    const { to, content } = await messageBody(c.req.raw);
    return c.json(await runs.send(c.req.param('runId'), to, content), 201);
  });
  app.post('/api/runs/:runId/requests/:requestId', async (c) => {
    const { approve, feedback } = await answerBody(c.req.raw);
    const answer = feedback === undefined ? { approve } : { approve, feedback };
    return c.json(await runs.respond(c.req.param('runId'), c.req.param('requestId'), answer));
  });
  app.post('/api/runs/:runId/shutdown', async (c) => {
    const { member, force = false } = await shutdownBody(c.req.raw);
    await runs.shutdown(c.req.param('runId'), member, force);
    return c.json({ member, force }, 202);
  });
  app.post('/api/runs/:runId/abort', async (c) => {
    const { reason } = await abortBody(c.req.raw);
    await runs.abort(c.req.param('runId'), reason);
    return c.json({ aborting: true }, 202);
  });
  app.all('/api/*', (c) => {
    throw new ApiError(404, `No route ${c.req.method} ${c.req.path}.`);
  });

  app.get('*', (c) => {
    const { assets } = options;
    if (!assets) {
      return c.text('The Studio page is not built: run `npm run build` in the agent-teams package.', 503);
    }
    // Every path that is not a file of the page is the page: it routes itself (#/runs/…).
    const asset = assets.get(c.req.path) ?? (assets.get('/index.html') as Asset);
    return c.body(new Uint8Array(asset.body), 200, { 'content-type': asset.type });
  });
  return app;
}
