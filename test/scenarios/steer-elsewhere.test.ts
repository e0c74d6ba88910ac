import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamStore } from 'agent-teams';
import { fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores, randomSchema } from '../store/postgres/database.js';

// Control goes through the log: a run that `agent-teams run` started in one process is steered
// from others — the command in another shell (send, respond, shutdown, abort) and the Studio
// (a member added, messaged and removed; a member shut down) — and acts on each.

const teamFile = fileURLToPath(new URL('./fixtures/steer-team.ts', import.meta.url));
const reachable = await postgresReachable();
const postgres = postgresStores();

interface Where {
  readonly flags: string[];
  readonly store: () => TeamStore;
}

const fileStore = (): Where => {
  const root = tempFolder('agent-teams-steer-');
  return { flags: ['--store', root], store: () => new FileStore({ root }) };
};
const postgresStore = (): Where => {
  const schema = randomSchema();
  return { flags: ['--postgres', POSTGRES_URL, '--schema', schema], store: () => postgres.make(schema) };
};

const fake = await fakeOpenAIServer((call) => `${call.agent} drew it.`);
afterAll(() => fake.close());

/** Reads the run's log until an event satisfies `until` (the store tells of commits; a second at most between looks). */
async function waitFor(
  store: TeamStore,
  runId: string,
  until: (event: TeamEvent) => boolean,
): Promise<TeamEvent> {
  for (;;) {
    const found = (await store.readEvents(runId)).find(until);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The run id of the team `steer`, once its run has started. */
async function runOf(store: TeamStore): Promise<string> {
  for (;;) {
    const info = await store.getTeam('steer').catch(() => undefined);
    if (info?.runId) return info.runId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function steered(where: Where) {
  const cwd = tempFolder('agent-teams-steer-cwd-');
  const env = { OPENAI_COMPATIBLE_BASE_URL: fake.url };
  const run = startCli(['run', teamFile, '--team', 'steer', '--input', 'Ship it', ...where.flags], {
    cwd,
    env,
  });
  const store = where.store();
  const runId = await runOf(store);
  const is =
    (type: string, check: (data: Record<string, unknown>) => boolean = () => true) =>
    (event: TeamEvent) =>
      event.type === type && check(event.data as Record<string, unknown>);
  const opened = await waitFor(
    store,
    runId,
    is('team:request-opened', (data) => data.from === 'c'),
  );
  await waitFor(
    store,
    runId,
    is('team:task-claimed', (data) => data.member === 'b'),
  );
  await waitFor(
    store,
    runId,
    is('team:task-claimed', (data) => data.member === 'a'),
  );
  const command = (...args: string[]) => cli([...args, ...where.flags], { cwd, env });

  // The command in another shell: a message, an answer, a forced shutdown.
  const sent = await command('send', 'steer', 'a', 'Use metric units');
  expect(sent).toMatchObject({ code: 0, stdout: expect.stringMatching(/^sent msg-\S+ to a in steer/) });
  // The person asks the lead; the lead answers them, and the answer is in their inbox.
  expect((await command('send', 'steer', 'lead', 'How far along?')).code).toBe(0);
  await waitFor(
    store,
    runId,
    is('team:message-sent', (data) => data.from === 'boss' && (data.to as string[]).includes('user')),
  );
  const inbox = await command('inbox', 'steer', 'user');
  expect(inbox.stdout).toMatch(/\[unread\] \S+ from boss: a and b are at work\./);
  expect((await command('inbox', 'steer', 'user')).stdout).toMatch(/\[read {2}\] \S+ from boss/);
  const requestId = (opened.data as { requestId: string }).requestId;
  const approved = await command('respond', 'steer', requestId, '--approve');
  expect(approved.code).toBe(0);
  await waitFor(
    store,
    runId,
    is('team:task-completed', (data) => (data.task as { id: string }).id === 'task-3'),
  );
  const forced = await command('shutdown', 'steer', 'a', '--force');
  expect(forced).toMatchObject({ code: 0, stdout: expect.stringContaining('a of steer shut down') });

  // The Studio, on the same store: a member added, heard from, removed; another shut down.
  const studio: StudioServer = await startStudio({ teams: {}, studio: studioStoreOf(store) });
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(new URL(route, studio.url).href.replace(/\?.*$/, ''), {
      method,
      headers: { authorization: `Bearer ${studio.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  try {
    const model = 'openai-compatible/fake-drawer';
    const added = await api('POST', `/api/runs/${runId}/members`, {
      name: 'd',
      instructions: 'Draw.',
      model,
    });
    expect(added).toMatchObject({ status: 201, body: { name: 'd', model } });
    expect(
      (await api('POST', `/api/runs/${runId}/messages`, { to: 'd', content: 'Draw a map' })).status,
    ).toBe(201);
    // The run's process ran d's turn from the definition its join recorded, on the model server.
    const drew = await waitFor(
      store,
      runId,
      is('team:member-finished', (data) => data.member === 'd'),
    );
    expect(drew.data).toMatchObject({ error: null, status: 'idle', output: 'd drew it.' });
    expect(fake.calls.some((call) => call.agent === 'd')).toBe(true);
    expect((await api('DELETE', `/api/runs/${runId}/members/d`)).status).toBe(200);
    await waitFor(
      store,
      runId,
      is('team:member-shutdown', (data) => data.member === 'd' && data.removed === true),
    );
    expect((await api('POST', `/api/runs/${runId}/shutdown`, { member: 'b', force: true })).status).toBe(202);
    await waitFor(
      store,
      runId,
      is('team:member-shutdown', (data) => data.member === 'b'),
    );
  } finally {
    await studio.close();
  }

  // And the command stops the run; its own process ends it as after Ctrl-C.
  const stopped = await command('abort', 'steer');
  expect(stopped).toMatchObject({
    stderr: '',
    code: 0,
    stdout: expect.stringContaining('stopped (aborted)'),
  });
  expect((await run.done).code).toBe(130);
  const runs = await command('runs', 'steer', '--json');
  expect(JSON.parse(runs.stdout.trim().split('\n')[0] as string)).toMatchObject({ runId, status: 'aborted' });
  const log = await store.readEvents(runId);
  const shutdowns = log
    .filter(is('team:member-shutdown'))
    .map((event) => (event.data as { member: string }).member);
  expect(shutdowns).toEqual(['a', 'd', 'b']);
  expect(log.filter(is('team:message-sent', (data) => data.from === 'user')).length).toBe(3);
  expect(log.find(is('team:request-answered'))?.data).toMatchObject({ requestId, approve: true, by: 'user' });
  // No event twice: every seq once, in order.
  expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
  await store.close();
}

test('a run that agent-teams run started is steered from another shell and from the Studio (FileStore)', async () => {
  await steered(fileStore());
}, 120_000);

describe.skipIf(!reachable)('on PostgreSQL', () => {
  test('a run that agent-teams run started is steered from another shell and from the Studio (PostgreSQL)', async () => {
    await steered(postgresStore());
  }, 120_000);
});

/** After `kill -9` of `agent-teams run`, the run shows interrupted (teams, runs, the Studio), and resume continues it. */
async function interrupted(where: Where) {
  const cwd = tempFolder('agent-teams-steer-cwd-');
  const env = { OPENAI_COMPATIBLE_BASE_URL: fake.url };
  const args = ['--team', 'steer', ...where.flags];
  const run = startCli(['run', teamFile, '--input', 'Ship it', ...args], { cwd, env });
  const store = where.store();
  const runId = await runOf(store);
  await waitFor(store, runId, (event) => event.type === 'team:task-claimed');
  const command = (...more: string[]) => cli([...more, ...where.flags], { cwd, env });
  expect((await command('teams')).stdout).toContain(' · running · ');
  run.child.kill('SIGKILL');
  await run.done;
  // Decided by the store at once, its runner's process known gone: no lease to wait out.
  const teams = (await command('teams')).stdout;
  expect(teams).toContain(' · interrupted · ');
  expect(teams).toContain('agent-teams resume');
  const runs = await command('runs', 'steer', '--json');
  expect(JSON.parse(runs.stdout.trim())).toMatchObject({
    runId,
    status: 'interrupted',
    runner: { pid: run.child.pid },
  });
  const studio = await startStudio({ teams: {}, studio: studioStoreOf(store) });
  try {
    const listed = await fetch(new URL('/api/runs', studio.url).href.replace(/\?.*$/, ''), {
      headers: { authorization: `Bearer ${studio.token}` },
    });
    expect(await listed.json()).toContainEqual(expect.objectContaining({ runId, status: 'interrupted' }));
  } finally {
    await studio.close();
  }
  // Nobody runs it to stop: an abort is refused with the way to continue it.
  const abort = await command('abort', 'steer');
  expect(abort).toMatchObject({ code: 1, stderr: expect.stringContaining('agent-teams resume') });
  const resumed = startCli(['resume', teamFile, ...args], { cwd, env });
  await waitFor(store, runId, (event) => event.type === 'team:resumed');
  expect((await command('teams')).stdout).toContain(' · running · ');
  expect((await command('abort', 'steer')).code).toBe(0);
  expect((await resumed.done).code).toBe(130);
  await store.close();
}

test('after kill -9 of agent-teams run the next teams shows its run interrupted, and resume continues it (FileStore)', async () => {
  await interrupted(fileStore());
}, 120_000);

describe.skipIf(!reachable)('on PostgreSQL, interrupted', () => {
  test('after kill -9 of agent-teams run the next teams shows its run interrupted, and resume continues it (PostgreSQL)', async () => {
    await interrupted(postgresStore());
  }, 120_000);
});
