import type { TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { elapsedMs, formatElapsed, trafficOf, transcriptOf } from '../../src/studio/web/views.js';

let seq = 0;
const event = (type: string, data: object, timestamp = '2026-01-01T00:00:00.000Z') =>
  ({ type, data, timestamp, team: 't', runId: 'r', seq: ++seq }) as unknown as TeamEvent;
const task = (id: string, createdBy: string, assignee: string | null = null) => ({ id, createdBy, assignee });

test('traffic counts each pair once whichever way it goes, thicker with every exchange', () => {
  const traffic = trafficOf([
    event('team:task-created', { by: 'lead', task: task('task-1', 'lead', 'a') }),
    event('team:task-created', { by: 'lead', task: task('task-2', 'lead') }),
    event('team:task-claimed', { member: 'b', task: task('task-2', 'lead') }),
    event('team:message-sent', { from: 'a', to: ['b', 'lead'], content: 'hi' }),
    event('team:message-sent', { from: 'b', to: ['a'], content: 'yes' }),
    event('team:task-completed', { by: 'a', task: task('task-1', 'lead', 'a') }),
    event('team:message-sent', { from: 'user', to: ['a'], content: 'go' }),
    event('team:task-completed', { by: 'lead', task: task('task-3', 'lead') }),
  ]);
  expect(traffic).toEqual([
    { a: 'a', b: 'lead', count: 3 },
    { a: 'b', b: 'lead', count: 1 },
    { a: 'a', b: 'b', count: 2 },
    { a: 'a', b: 'user', count: 1 },
  ]);
});

test('a transcript holds an agent’s turns with what each was given, its tool steps and its reply', () => {
  const turns = transcriptOf(
    [
      event('team:message-sent', { id: 'm1', from: 'user', to: ['a'], content: 'metric please' }),
      event('team:member-started', {
        member: 'a',
        turn: 1,
        reason: 'message',
        taskId: null,
        messageIds: ['m1'],
      }),
      event('team:member-started', {
        member: 'b',
        turn: 1,
        reason: 'task',
        taskId: 'task-1',
        messageIds: [],
      }),
      event('team:tool-called', { member: 'a', turn: 1, toolName: 'read_inbox', input: {} }),
      event('team:tool-result', { member: 'a', turn: 1, toolName: 'read_inbox', output: { messages: [] } }),
      event('team:turn-usage', { member: 'a', turn: 1, usage: { totalTokens: 120 } }),
      event('team:member-finished', { member: 'a', turn: 1, status: 'idle', output: 'Noted.', error: null }),
    ],
    'a',
  );
  expect(turns).toEqual([
    expect.objectContaining({
      turn: 1,
      reason: 'message',
      messages: [expect.objectContaining({ from: 'user', content: 'metric please' })],
      steps: [
        { kind: 'tool-called', tool: 'read_inbox', detail: '{"input":{}}' },
        { kind: 'tool-result', tool: 'read_inbox', detail: '{"output":{"messages":[]}}' },
      ],
      tokens: 120,
      output: 'Noted.',
      status: 'idle',
    }),
  ]);
});

test('elapsed time runs to now while the run goes and stops at its last event', () => {
  const events = [
    event('team:start', {}, '2026-01-01T00:00:00.000Z'),
    event('team:complete', {}, '2026-01-01T00:01:05.000Z'),
  ];
  expect(formatElapsed(elapsedMs(events, false, Date.parse('2026-01-01T05:00:00Z')))).toBe('1:05');
  expect(formatElapsed(elapsedMs(events, true, Date.parse('2026-01-01T02:03:00Z')))).toBe('2h 03m');
  expect(elapsedMs([], true, 0)).toBe(0);
});
