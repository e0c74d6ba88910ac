import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Team } from '../../team/team.js';
import { StudioAccess } from './access.js';
import { studioHosts } from './addresses.js';
import { studioApp } from './app.js';
import { loadAssets } from './assets.js';
import { STREAM_LIFETIME_MS } from './event-stream.js';
import { StudioRuns } from './studio-runs.js';
import type { StudioStore } from './studio-store.js';

/** How long closing waits for the runs it aborted to stop cleanly. */
const STOP_GRACE_MS = 5000;

export interface StudioServerOptions {
  readonly teams: Readonly<Record<string, Team>>;
  readonly studio: StudioStore;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** How long an event stream lives before the Studio ends it (the page reconnects); default 10 minutes. */
  readonly streamLifetimeMs?: number;
}

export interface StudioServer {
  /** The page's address with the launch's token: the one way in. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Aborts the runs it started (they can be resumed), then stops serving; answers whether they all stopped. */
  close(): Promise<boolean>;
}

/** Serves the Studio until `close`; answers once it listens. */
export function startStudio(options: StudioServerOptions): Promise<StudioServer> {
  const access = new StudioAccess();
  const host = options.host ?? '127.0.0.1';
  // The hosts it answers to name its port, which is known once it listens.
  let hosts: ReadonlySet<string> = new Set();
  const runs = new StudioRuns(options.teams, options.studio);
  const app = studioApp({
    access,
    hosts: () => hosts,
    studio: options.studio,
    runs,
    assets: loadAssets(),
    streamLifetimeMs: options.streamLifetimeMs ?? STREAM_LIFETIME_MS,
  });
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname: host, port: options.port ?? 0 },
      (info: AddressInfo) => {
        const { port } = info;
        hosts = studioHosts(host, port);
        const shown = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${shown}:${port}/?token=${access.token}`,
          port,
          token: access.token,
          close: async () => {
            const stopped = await runs.stopAll(STOP_GRACE_MS);
            await new Promise<void>((done) => {
              server.close(() => done());
              // Open event streams would hold the server open for ever.
              if ('closeAllConnections' in server) server.closeAllConnections();
            });
            return stopped;
          },
        });
      },
    );
    server.once('error', reject);
  });
}
