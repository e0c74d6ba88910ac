import type { LanguageModelV3 } from '@ai-sdk/provider';
import { Agent, Team, type TeamEvent } from 'agent-teams';
import { type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { createTask } from '../helpers/team.js';

// A turn streams only when someone watches its text as it comes: a reader of run.events() that
// asked for it, or a listener of team:text-delta (or of every event). Otherwise each of its
// steps is one plain model call, which costs less; what is logged is the same either way.

const script = (call: ScriptedCall) => {
  if (call.agent === 'lead' && call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Measure', assignee: 'a' })] };
  if (call.reason === 'synthesis') return 'The room is 4 m by 3 m.';
  return call.agent === 'a' ? '4 m by 3 m.' : 'Planned.';
};

function team(model: LanguageModelV3) {
  const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.` });
  return new Team({ name: 'w', lead: agent('lead'), members: [agent('a')] });
}

/** What a log shows of a run, without what differs from run to run (times, ids). */
const shape = (events: readonly TeamEvent[]) =>
  events.map((event) => {
    const { timestamp: _t, runId: _r, ...rest } = event;
    return JSON.stringify(rest)
      .replace(/msg-[\w-]+/g, 'msg')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'time');
  });

test('nobody watching: every step is a plain call, and run.events() gives no live text', async () => {
  const model = scriptedModel(script);
  const unwatched = team(model);
  const run = await unwatched.start({ input: 'Measure the room' });
  const seen: TeamEvent[] = [];
  for await (const event of run.events()) seen.push(event);
  const result = await run.result;
  expect(result.output).toBe('The room is 4 m by 3 m.');
  expect(model.doStreamCalls).toHaveLength(0);
  expect(model.doGenerateCalls).toHaveLength(model.calls.length);
  expect(seen.some((event) => event.type === 'team:text-delta')).toBe(false);
  expect(seen).toEqual(await unwatched.store.readEvents(run.runId));
});

test('a reader of run.events({ deltas: true }) watches: the turns stream their text to it, and the log is the same as unwatched', async () => {
  const watchedModel = scriptedModel(script);
  const watchedTeam = team(watchedModel);
  const run = await watchedTeam.start({ input: 'Measure the room' });
  const seen: TeamEvent[] = [];
  for await (const event of run.events({ deltas: true })) seen.push(event);
  await run.result;
  // The reader was there before the first turn began: every turn streamed.
  expect(watchedModel.doGenerateCalls).toHaveLength(0);
  expect(watchedModel.doStreamCalls).toHaveLength(watchedModel.calls.length);
  const deltas = seen.flatMap((event) => (event.type === 'team:text-delta' ? [event.data] : []));
  expect(deltas).toContainEqual({ agent: 'a', turn: 1, delta: '4 m by 3 m.' });
  expect(deltas).toContainEqual({ agent: 'lead', turn: 2, delta: 'The room is 4 m by 3 m.' });

  const plainModel = scriptedModel(script);
  const plainTeam = team(plainModel);
  const plain = await plainTeam.run({ input: 'Measure the room' });
  expect(plainModel.doStreamCalls).toHaveLength(0);
  const watchedLog = await watchedTeam.store.readEvents(run.runId);
  expect(shape(await plainTeam.store.readEvents(plain.runId))).toEqual(shape(watchedLog));
  expect(seen.filter((event) => event.type !== 'team:text-delta')).toEqual(watchedLog);
});

test('a team:text-delta listener watches: the turns stream to it', async () => {
  const model = scriptedModel(script);
  const watched = team(model);
  const deltas: string[] = [];
  watched.on('team:text-delta', (event) => deltas.push(`${event.data.agent}: ${event.data.delta}`));
  await watched.run({ input: 'Measure the room' });
  expect(model.doGenerateCalls).toHaveLength(0);
  expect(deltas).toContain('a: 4 m by 3 m.');
});

test('a model that cannot stream works watched: its turns make plain calls', async () => {
  const streaming = scriptedModel(script);
  const plainOnly = {
    specificationVersion: 'v3',
    provider: 'plain',
    modelId: 'plain-only',
    supportedUrls: {},
    doGenerate: (options) => streaming.doGenerate(options),
  } as LanguageModelV3;
  delete (plainOnly as { doStream?: unknown }).doStream;
  const watched = team(plainOnly);
  const deltas: string[] = [];
  watched.on('team:text-delta', (event) => deltas.push(event.data.delta));
  const result = await watched.run({ input: 'Measure the room' });
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.teamResult.tasks[0]?.result).toBe('4 m by 3 m.');
  expect(streaming.doGenerateCalls.length).toBeGreaterThan(0);
  expect(deltas).toEqual([]);
});
