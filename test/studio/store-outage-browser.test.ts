import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { postgresReachable, postgresStores, randomSchema } from '../store/postgres/database.js';
import { DatabaseProxy } from '../store/postgres/database-faults.js';
import { readStream } from './helpers/sse.js';
import { chromiumAvailable, launchChromium } from './helpers/studio-child.js';

// The Studio on a PostgreSQL server that goes out of reach (through a TCP proxy that cuts
// every connection and refuses new ones): a run's event stream says so (`event: store`), the
// run's page shows it in its status line, and both say when the store is back.
const reachable = await postgresReachable();
const stores = postgresStores();
const proxy = new DatabaseProxy();
let server: StudioServer | undefined;
let browser: Browser | undefined;
let store: PostgresStore | undefined;
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await store?.close();
  await proxy.down();
});

/** A run with one event, in a store behind the proxy, and a Studio on that store. */
async function studioOnRun() {
  await proxy.up();
  const schema = randomSchema();
  stores.schemas.push(schema);
  store = new PostgresStore({ connectionString: proxy.url, schema });
  await store.createTeam('desk', { lead: 'lead', members: ['writer'] });
  const runId = (await store.startRun('desk')).runId as string;
  await store.transact('desk', ({ emit }) =>
    emit({ type: 'team:start', data: { lead: 'lead', members: ['writer'], input: 'One' } }),
  );
  server = await startStudio({ teams: {}, studio: studioStoreOf(store) });
  return { runId, server };
}

interface Said {
  readonly reachable?: boolean;
  readonly since?: string;
  readonly error?: string;
}

describe.skipIf(!reachable || !chromiumAvailable())('the Studio while its store is out of reach', () => {
  test('the stream and the page say the store cannot be reached, then that it is back', async () => {
    const { runId, server } = await studioOnRun();
    const url = new URL(`/api/runs/${runId}/events`, server.url).href.replace(/\?.*$/, '');
    const headers = { authorization: `Bearer ${server.token}` };
    // The stream: what it says while the store is away, and once it is back.
    const said: Said[] = [];
    const reading = readStream(url, {
      headers,
      until: (event) => {
        const reach = event as unknown as Said;
        if (reach.reachable === undefined) {
          if (event.type === 'team:start') void proxy.down();
          return false;
        }
        said.push(reach);
        if (reach.reachable === false) void proxy.up();
        return reach.reachable === true;
      },
    });
    await reading;
    expect(said).toEqual([
      { reachable: false, since: expect.any(String), error: expect.stringMatching(/ECONNREFUSED/) },
      { reachable: true },
    ]);

    // The page: its status line, from its own stream.
    browser = await launchChromium();
    const page = await browser.newPage();
    page.setDefaultTimeout(50_000);
    await page.goto(server.url);
    // The run's page, at the address the page landed on (its session's path).
    await page.goto(`${page.url().split('#')[0]}#/runs/${encodeURIComponent(runId)}`);
    // Its stream is open once it shows the run's first event.
    await page.locator('main[data-status="running"]').waitFor();
    const outage = page.getByTestId('store-outage');
    expect(await outage.count()).toBe(0);
    await proxy.down();
    await outage.waitFor();
    expect(await outage.textContent()).toMatch(
      /^The store cannot be reached since \d\d:\d\d:\d\d: .*ECONNREFUSED/,
    );
    await proxy.up();
    await outage.waitFor({ state: 'detached' });
  }, 90_000);
});
