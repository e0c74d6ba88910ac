import path from 'node:path';
import { FileStore, type TeamEvent } from 'agent-teams';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type StudioServer, startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { PERSON_TASK, teams } from '../cli/fixtures/board-team.js';
import { teams as judged, VAGUE } from '../cli/fixtures/judged-team.js';
import { expectBoardTasks, taskTurns } from '../helpers/board-run.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { readStream } from './helpers/sse.js';

// `POST /api/runs/:runId/tasks`, `PATCH` and `DELETE /api/runs/:runId/tasks/:taskId`: the
// person at the board of a going run, through the Studio's HTTP API.

let server: StudioServer;
let store: FileStore;
const api = (route: string) => new URL(route, server.url).href.replace(/\?.*$/, '');
const auth = () => ({ authorization: `Bearer ${server.token}` });
const send = (method: string, route: string, body: unknown) =>
  fetch(api(route), {
    method,
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const answer = async (response: Response) => (await response.json()) as Record<string, unknown>;
const streamOf = (runId: string, until: (event: TeamEvent) => boolean) =>
  readStream(api(`/api/runs/${runId}/events`), { headers: auth(), until });

beforeAll(async () => {
  store = new FileStore({ root: path.join(tempFolder(), 'store') });
  server = await startStudio({ teams, studio: studioStoreOf(store) });
});
afterAll(() => server.close());

test('the person deletes, gives and adds tasks of a going run through the API, and the run does what the board says', async () => {
  const started = await answer(await send('POST', '/api/runs', { team: 'board', input: 'Hold the line' }));
  const runId = String(started.runId);
  const tasks = `/api/runs/${runId}/tasks`;
  await streamOf(runId, (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1');
  // The plan's tasks are created one by one: task-3 may come after a claimed task-1.
  await streamOf(runId, (event) => event.type === 'team:task-created' && event.data.task.id === 'task-3');

  const deleted = await send('DELETE', `${tasks}/task-2`, { reason: 'Polish is not needed' });
  expect(deleted.status).toBe(200);
  expect(await answer(deleted)).toMatchObject({
    task: { id: 'task-2', status: 'deleted', note: 'Polish is not needed' },
  });
  const given = await send('PATCH', `${tasks}/task-3`, { assignee: 'c' });
  expect(await answer(given)).toMatchObject({ task: { id: 'task-3', assignee: 'c' } });

  const refusals: [string, string, unknown, number, Record<string, unknown>][] = [
    [
      'PATCH',
      'task-1',
      { addDependsOn: ['task-3'] },
      409,
      { code: 'task-in-progress', error: expect.stringContaining('only a pending task changes') },
    ],
    [
      'PATCH',
      'task-3',
      { addDependsOn: ['task-3'] },
      400,
      { code: 'dependency-cycle', error: 'task-3 cannot wait for itself.' },
    ],
    ['PATCH', 'task-3', { addDependsOn: ['task-2'] }, 400, { code: 'task-deleted' }],
    ['PATCH', 'task-9', { title: 'x' }, 404, { code: 'task-not-found' }],
    ['PATCH', 'task-3', { owner: 'c' }, 400, { error: expect.stringContaining('it does not know "owner"') }],
    [
      'PATCH',
      'task-3',
      {},
      400,
      { code: 'invalid-input', error: expect.stringContaining('Nothing to change') },
    ],
    ['DELETE', 'task-3', {}, 400, { error: expect.stringContaining('takes { reason }: reason') }],
    ['DELETE', 'task-1', { reason: 'Stop' }, 409, { code: 'task-in-progress' }],
  ];
  for (const [method, taskId, body, status, refused] of refusals) {
    const response = await send(method, `${tasks}/${taskId}`, body);
    expect([method, taskId, response.status]).toEqual([method, taskId, status]);
    expect(await answer(response)).toMatchObject(refused);
  }
  expect((await send('POST', '/api/runs/no-such-run/tasks', { title: 'x' })).status).toBe(404);
  const stranger = await fetch(api(tasks), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'x' }),
  });
  expect(stranger.status).toBe(401);
  // Nothing the refusals asked for happened.
  expect(await store.transact('board', ({ board }) => board.getTask('task-3'))).toMatchObject({
    assignee: 'c',
    dependsOn: ['task-1'],
    title: 'Review',
  });

  const added = await send('POST', tasks, { title: PERSON_TASK, assignee: 'b' });
  expect(added.status).toBe(201);
  expect(await answer(added)).toMatchObject({ task: { id: 'task-4', createdBy: 'user', assignee: 'b' } });

  const { events } = await streamOf(runId, (event) => event.type === 'team:complete');
  expect(events.at(-1)).toMatchObject({
    data: { stopReason: 'completed', tasks: { deleted: 1, completed: 3 } },
  });
  expectBoardTasks(await store.transact('board', ({ board }) => board.listTasks()));
  expect(taskTurns(events).sort()).toEqual(['a task-1', 'b task-4', 'c task-3']);
  const late = await send('POST', tasks, { title: 'Too late' });
  expect(late.status).toBe(409);
  expect(await answer(late)).toMatchObject({ code: 'run-ended' });
}, 60_000);

test('PATCH with assignee null takes a task back to the list, from the member working on it too; the run does it all the same', async () => {
  const started = await answer(await send('POST', '/api/runs', { team: 'board', input: 'Hold the line' }));
  const runId = String(started.runId);
  const tasks = `/api/runs/${runId}/tasks`;
  await streamOf(runId, (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1');
  // The plan's tasks are created one by one: task-3 may come after a claimed task-1.
  await streamOf(runId, (event) => event.type === 'team:task-created' && event.data.task.id === 'task-3');

  const wrong = await send('PATCH', `${tasks}/task-3`, { assignee: 42 });
  expect(wrong.status).toBe(400);
  expect(await answer(wrong)).toMatchObject({
    error: expect.stringContaining(
      "assignee must be a member's name, or null to take the task back to the list",
    ),
  });
  const busy = await send('PATCH', `${tasks}/task-3`, { assignee: 'c' });
  expect(await answer(busy)).toMatchObject({ task: { assignee: 'c' } });
  const pending = await send('PATCH', `${tasks}/task-3`, { assignee: null });
  expect(pending.status).toBe(200);
  expect(await answer(pending)).toMatchObject({ task: { id: 'task-3', status: 'pending', assignee: null } });
  const held = await send('PATCH', `${tasks}/task-1`, { assignee: null });
  expect(await answer(held)).toMatchObject({
    task: { id: 'task-1', status: 'pending', owner: null, assignee: null },
  });
  expect(
    await store.transact('board', ({ mailbox }) => mailbox.messages('a').map((m) => m.content)),
  ).toContain(
    'user took task-1 ("Hold the line") back from you: it is on the list for anyone again, no longer yours to do.',
  );

  await send('POST', tasks, { title: PERSON_TASK });
  const { events } = await streamOf(runId, (event) => event.type === 'team:complete');
  expect(events.at(-1)).toMatchObject({ data: { stopReason: 'completed', tasks: { completed: 4 } } });
}, 60_000);

test('POST a task runs the team’s onTaskCreated hook when the Studio’s file defines the team: a rejected task is a 400 with its feedback and is not added', async () => {
  const other = await startStudio({
    teams: judged,
    studio: studioStoreOf(new FileStore({ root: path.join(tempFolder(), 'store') })),
  });
  try {
    const post = (route: string, body: unknown) =>
      fetch(new URL(route, other.url).href.replace(/\?.*$/, ''), {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const started = await answer(await post('/api/runs', { team: 'judged', input: 'Write an intro' }));
    const runId = String(started.runId);
    const events = new URL(`/api/runs/${runId}/events`, other.url).href.replace(/\?.*$/, '');
    const headers = { authorization: `Bearer ${other.token}` };
    await readStream(events, {
      headers,
      until: (event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1',
    });
    const rejected = await post(`/api/runs/${runId}/tasks`, { title: 'A vague task' });
    expect(rejected.status).toBe(400);
    expect(await answer(rejected)).toEqual({
      code: 'hook-rejected',
      error: `The task "A vague task" was not created: ${VAGUE}`,
    });
    const added = await post(`/api/runs/${runId}/tasks`, { title: 'Write the intro' });
    expect(added.status).toBe(201);
    expect(await answer(added)).toMatchObject({ task: { id: 'task-2', createdBy: 'user' } });
    const { events: log } = await readStream(events, {
      headers,
      until: (event) => event.type === 'team:complete',
    });
    expect(log.flatMap((event) => (event.type === 'team:hook-rejected' ? [event.data] : []))).toEqual([
      { hook: 'onTaskCreated', agent: 'user', taskId: null, feedback: VAGUE },
    ]);
    expect(log.at(-1)).toMatchObject({
      data: { stopReason: 'completed', tasks: { total: 2, completed: 2 } },
    });
  } finally {
    await other.close();
  }
}, 60_000);
