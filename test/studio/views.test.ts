import type { TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import {
  answerOf,
  elapsedMs,
  followStreaming,
  formatElapsed,
  latestTextOf,
  type Streaming,
  trafficOf,
  turnsOf,
} from '../../src/studio/web/views.js';

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

test('a transcript holds an agent’s turns with what each was given, its steps as data and its reply', () => {
  const turns = turnsOf([
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
    event('team:turn-text', { agent: 'a', turn: 1, step: 0, text: 'Reading.' }),
    event('team:tool-called', {
      agent: 'a',
      turn: 1,
      toolName: 'create_task',
      input: '{"title":"Say \\"hi\\""}',
    }),
    event('team:tool-result', {
      agent: 'a',
      turn: 1,
      toolName: 'create_task',
      output: '{"success":true,"task":{"id":"task-2"}}',
      isError: false,
    }),
    event('team:tool-called', { agent: 'b', turn: 1, toolName: 'read_inbox', input: '{}' }),
    event('team:tool-result', {
      agent: 'a',
      turn: 1,
      toolName: 'send_message',
      output: '{"cut": "abc\n[cut: 5 more characters]',
      isError: true,
    }),
    event('team:turn-usage', { member: 'a', turn: 1, usage: { totalTokens: 120 } }),
    event('team:member-finished', { member: 'a', turn: 1, status: 'idle', output: 'Noted.', error: null }),
  ]).filter((turn) => turn.agent === 'a');
  expect(turns).toEqual([
    expect.objectContaining({
      agent: 'a',
      turn: 1,
      reason: 'message',
      messages: [expect.objectContaining({ from: 'user', content: 'metric please' })],
      steps: [
        { kind: 'text', text: 'Reading.' },
        // The logged JSON is data again: no JSON escaped inside JSON.
        { kind: 'tool-called', tool: 'create_task', payload: { kind: 'json', value: { title: 'Say "hi"' } } },
        {
          kind: 'tool-result',
          tool: 'create_task',
          payload: { kind: 'json', value: { success: true, task: { id: 'task-2' } } },
          isError: false,
        },
        // Cut short, it is no longer JSON: it stays the text it is.
        {
          kind: 'tool-result',
          tool: 'send_message',
          payload: { kind: 'text', text: '{"cut": "abc\n[cut: 5 more characters]' },
          isError: true,
        },
      ],
      tokens: 120,
      output: 'Noted.',
      status: 'idle',
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:00.000Z',
    }),
  ]);
});

test('every agent’s turns in the order they began; a turn a stop cut ends there, cut', () => {
  const at = (second: number) => `2026-01-01T00:00:0${second}.000Z`;
  const turns = turnsOf([
    event(
      'team:member-started',
      { member: 'a', turn: 1, reason: 'start', taskId: null, messageIds: [] },
      at(0),
    ),
    event(
      'team:member-started',
      { member: 'b', turn: 1, reason: 'task', taskId: 'task-1', messageIds: [] },
      at(1),
    ),
    event('team:member-finished', { member: 'a', turn: 1, status: 'idle', output: '', error: null }, at(2)),
    // The process died here; the resume finds b's turn cut at the last event before it.
    event('team:resumed', { requeued: ['task-1'] }, at(5)),
    event(
      'team:member-started',
      { member: 'b', turn: 1, reason: 'task', taskId: 'task-1', messageIds: [] },
      at(6),
    ),
    event('team:complete', { stopReason: 'aborted', output: '' }, at(7)),
  ]);
  expect(turns.map((turn) => [turn.agent, turn.turn, turn.endedAt, turn.status])).toEqual([
    ['a', 1, at(2), 'idle'],
    ['b', 1, at(2), 'cut'],
    ['b', 1, at(7), 'cut'],
  ]);
});

test('the final answer is the last team:complete’s output, none while the run goes again', () => {
  const done = [
    event('team:start', {}),
    event('team:complete', { stopReason: 'aborted', output: '' }),
    event('team:resumed', { requeued: [] }),
  ];
  expect(answerOf(done)).toBeNull();
  expect(answerOf([...done, event('team:complete', { stopReason: 'completed', output: 'Tides.' })])).toBe(
    'Tides.',
  );
  // A log written before answers were logged has none to show.
  expect(answerOf([event('team:complete', { stopReason: 'completed' })])).toBeNull();
  expect(
    latestTextOf(
      [
        event('team:turn-text', { agent: 'lead', turn: 1, step: 0, text: 'Planning.' }),
        event('team:turn-text', { agent: 'a', turn: 1, step: 0, text: 'Not the lead.' }),
      ],
      'lead',
    ),
  ).toBe('Planning.');
});

test('streamed text follows its turn: a logged step or the turn’s end takes it away', () => {
  const streaming = new Map<string, Streaming>();
  const see = (type: string, data: object) => followStreaming(streaming, event(type, data));
  see('team:member-started', { member: 'a', turn: 2 });
  see('team:text-delta', { agent: 'a', turn: 2, delta: 'Hel' });
  see('team:text-delta', { agent: 'a', turn: 2, delta: 'lo' });
  expect(streaming.get('a')).toEqual({ turn: 2, text: 'Hello' });
  see('team:turn-text', { agent: 'a', turn: 2, step: 0, text: 'Hello' });
  expect(streaming.has('a')).toBe(false);
  see('team:text-delta', { agent: 'a', turn: 2, delta: 'More' });
  // Another agent's turn changes nothing of a's.
  see('team:member-finished', { member: 'b', turn: 2 });
  expect(streaming.get('a')?.text).toBe('More');
  see('team:member-finished', { member: 'a', turn: 2 });
  expect(streaming.has('a')).toBe(false);
  // A stop cuts a turn without its end: its text goes with the stop.
  see('team:text-delta', { agent: 'a', turn: 3, delta: 'Cut' });
  see('team:complete', { stopReason: 'aborted' });
  expect(streaming.size).toBe(0);
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
