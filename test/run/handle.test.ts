import path from 'node:path';
import { FileStore, isTeamError, MemoryStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { byAgent, createTask, testTeam } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const plan = (call: { reason?: string; step: number }) =>
  call.reason === 'start' && call.step === 0
    ? { toolCalls: [createTask({ title: 'Long', assignee: 'a' })] }
    : 'Final';

test('run.events() gives every event from the first, then live, and ends with the run', async () => {
  const { team, events } = testTeam(byAgent({ lead: plan, a: () => 'done' }), { members: ['a', 'b'] });
  const run = await team.start({ input: 'go' });
  const seen: TeamEvent[] = [];
  for await (const event of run.events({ deltas: true })) seen.push(event);
  await run.result;
  // Live text comes between the logged events (and to team.on alike), in the log it is not.
  const logged = seen.filter((event) => event.type !== 'team:text-delta');
  const deltas = seen.flatMap((event) => (event.type === 'team:text-delta' ? [event.data] : []));
  expect(deltas.filter((delta) => delta.agent === 'lead')).toEqual([
    { agent: 'lead', turn: 1, delta: 'Final' },
    { agent: 'lead', turn: 2, delta: 'Final' },
  ]);
  expect(deltas.filter((delta) => delta.agent === 'a')).toEqual([{ agent: 'a', turn: 1, delta: 'done' }]);
  expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
  expect(seen.at(-1)?.type).toBe('team:complete');
  expect(seen).toEqual(events);
  expect(logged).toEqual(await team.store.readEvents(run.runId));
  // A late reader still gets the whole run as its log holds it.
  const again: TeamEvent[] = [];
  for await (const event of run.events()) again.push(event);
  expect(again).toEqual(logged);
});

test('a reader that comes mid-run on a FileStore gets the run from its log, then live, each event once', async () => {
  const store = new FileStore({ root: tempFolder() });
  const { team } = testTeam(byAgent({ lead: plan, a: () => 'done' }), {
    members: ['a', 'b'],
    store,
    latencyMs: (call) => (call.agent === 'a' ? 100 : 0),
  });
  const run = await team.start({ input: 'go' });
  // It comes once a's turn has begun: the events before are read back from the log.
  await new Promise<void>((resolve) =>
    team.on('team:member-started', (event) => event.data.member === 'a' && resolve()),
  );
  const seen: TeamEvent[] = [];
  for await (const event of run.events()) seen.push(event);
  await run.result;
  expect(seen.map((event) => event.seq)).toEqual(seen.map((_, index) => index + 1));
  expect(seen.at(-1)?.type).toBe('team:complete');
  expect(seen).toEqual(await store.readEvents(run.runId));
});

test('run.send() delivers a message from the person, which wakes its reader', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { team, model } = testTeam(
    byAgent({ lead: plan, a: () => 'done', b: (call) => (call.reason === 'message' ? 'Will do.' : 'ok') }),
    { members: ['a', 'b'], latencyMs: (call) => (call.agent === 'a' ? 50 : 0) },
  );
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type === 'team:task-claimed') {
      const sent = await run.send('b', 'Use metric units');
      expect(sent).toMatchObject({ from: 'user', to: ['b'] });
      release();
    }
    if (event.type === 'team:member-started' && event.data.member === 'b') break;
  }
  await held;
  const result = await run.result;
  const prompt = model.calls.find((call) => call.agent === 'b' && call.reason === 'message')?.prompt ?? '';
  expect(prompt).toContain('Use metric units');
  expect(prompt).toMatch(/from the user/i);
  expect(result.agentResults.b?.output).toBe('Will do.');
  // The turn's reply comes to the person's inbox, as the automatic answer to their message.
  const messages = await team.store.readEvents(result.runId);
  expect(
    messages
      .filter((event) => event.type === 'team:message-sent' && event.data.kind !== 'idle_notification')
      .map((event) => (event.type === 'team:message-sent' ? event.data.from : '')),
  ).toEqual(['user', 'b']);
  expect(
    messages.flatMap((event) =>
      event.type === 'team:message-sent' && event.data.to.includes('user')
        ? [[event.data.from, event.data.content]]
        : [],
    ),
  ).toEqual([['b', 'Will do.']]);
});

test('a second run of the team on the same store is refused with team-busy before anything is written', async () => {
  const store = new MemoryStore();
  const { team } = testTeam(byAgent({ lead: plan, a: () => 'done' }), {
    members: ['a', 'b'],
    store,
    latencyMs: (call) => (call.agent === 'a' ? 200 : 0),
  });
  const first = await team.start({ input: 'go' });
  const before = await store.readEvents(first.runId);
  const other = team.withModel(team.lead.model);
  const error = await other.start({ input: 'another' }).catch((caught) => caught);
  expect(isTeamError(error, 'team-busy')).toBe(true);
  expect((await store.getTeam('t'))?.runId).toBe(first.runId);
  const result = await first.result;
  // The refused start wrote nothing into the live run's log.
  const log = await store.readEvents(first.runId);
  expect(log.slice(0, before.length)).toEqual(before);
  expect(log.filter((event) => event.type === 'team:start')).toHaveLength(1);
  expect(result.teamResult.stopReason).toBe('completed');
  // Once it is over, the team may run again.
  await expect((await other.start({ input: 'another' })).result).resolves.toMatchObject({ output: 'Final' });
});

test('a message sent with `agent-teams send` from another process starts the reader’s turn within 300 ms', async () => {
  const root = tempFolder();
  const store = new FileStore({ root: path.join(root, '.agent-teams') });
  const { team } = testTeam(byAgent({ lead: plan, a: () => 'done', b: () => 'On it.' }), {
    members: ['a', 'b'],
    store,
    // a holds the run open; b is idle, with nothing to do until the person writes to it.
    latencyMs: (call) => (call.agent === 'a' ? 3_600_000 : 0),
  });
  const run = await team.start({ input: 'go' });
  let sentAt = 0;
  for await (const event of run.events()) {
    if (event.type === 'team:task-claimed') {
      const sent = await cli(['send', 't', 'b', 'Are you free?'], { cwd: root });
      expect(sent.code).toBe(0);
    }
    if (event.type === 'team:message-sent') sentAt = Date.parse(event.timestamp);
    if (event.type === 'team:member-started' && event.data.member === 'b') {
      expect(event.data.reason).toBe('message');
      expect(Date.parse(event.timestamp) - sentAt).toBeLessThan(300);
      run.abort('done');
    }
  }
  expect((await run.result).teamResult.stopReason).toBe('aborted');
});
