import { foldEvents, MemoryStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { type BoardSnapshot, decide, takeSnapshot } from '../../src/run/schedule.js';
import { finished, log, start, started } from './events.js';

const limits = { maxConcurrentMembers: 2, maxLeadTurns: 3, maxTurnsPerMember: 2 };
const counts = (pending: number, inProgress = 0, completed = 0) => ({
  total: pending + inProgress + completed,
  pending,
  inProgress,
  completed,
  closed: 0,
  deleted: 0,
});
const snapshot = (
  agents: Record<string, { held?: string; claimable?: string; unread?: string[] }>,
  taskCounts = counts(1),
): BoardSnapshot => ({
  counts: () => taskCounts,
  agent: (name) => {
    const seen = agents[name];
    return seen && { held: seen.held ?? null, claimable: seen.claimable ?? null, unread: seen.unread ?? [] };
  },
});
const planned = (...more: TeamEvent[]) => [
  ...log(start(['a', 'b', 'c']), started('lead', 1, 'start'), finished('lead', 1, 'start')),
  ...more,
];

test('the lead’s first turn comes before anything', () => {
  const state = foldEvents(log(start()));
  expect(decide(state, snapshot({ a: { claimable: 'task-1' } }), limits)).toMatchObject({
    kind: 'turn',
    agent: 'lead',
    reason: 'start',
  });
});

test('a member starts with the task it holds, then one it may claim, then its messages', () => {
  const state = foldEvents(planned());
  const held = snapshot({ a: { held: 'task-2', claimable: 'task-1', unread: ['m1'] } });
  expect(decide(state, held, limits)).toEqual({
    kind: 'turn',
    agent: 'a',
    reason: 'task',
    taskId: 'task-2',
    messageIds: ['m1'],
  });
  const messages = snapshot({ a: { unread: ['m1'] } });
  expect(decide(state, messages, limits)).toMatchObject({ agent: 'a', reason: 'message', taskId: null });
});

test('members take turns: the one after the member that started last goes first', () => {
  const events = log(
    start(['a', 'b', 'c']),
    started('lead', 1, 'start'),
    finished('lead', 1, 'start'),
    started('a', 1, 'task'),
    finished('a', 1, 'task'),
  );
  const everyone = snapshot({
    a: { claimable: 'task-2' },
    b: { claimable: 'task-2' },
    c: { claimable: 'task-2' },
  });
  expect(decide(foldEvents(events), everyone, limits)).toMatchObject({ agent: 'b' });
});

test('the pool is full at maxConcurrentMembers: the run waits', () => {
  const state = foldEvents(
    planned(...log(started('a', 1, 'task'), started('b', 1, 'task')).map(renumber(4))),
  );
  expect(decide(state, snapshot({}), limits)).toEqual({ kind: 'wait' });
});

test('a member out of turns is not started; the run ends at the turn limit', () => {
  const turns = log(started('a', 1, 'task'), finished('a', 1, 'task'), started('a', 2, 'task'));
  const state = foldEvents(
    planned(...[...turns, ...log(finished('a', 2, 'task', '', 'stopped'))].map(renumber(4))),
  );
  const lead = state.agents.get('lead');
  if (lead) lead.countedTurns = limits.maxLeadTurns;
  expect(decide(state, snapshot({}), limits)).toEqual({ kind: 'end', stopReason: 'turn-limit' });
});

test('when nothing runs: no tasks, all done, or a stalled turn that is tried once per change', () => {
  const state = foldEvents(planned());
  expect(decide(state, snapshot({}, counts(0)), limits)).toEqual({ kind: 'end', stopReason: 'no-tasks' });
  expect(decide(state, snapshot({}, counts(0, 0, 2)), limits)).toEqual({
    kind: 'end',
    stopReason: 'completed',
  });
  expect(decide(state, snapshot({}), limits)).toMatchObject({ agent: 'lead', reason: 'stalled' });
  const afterStall = foldEvents(
    planned(...log(started('lead', 2, 'stalled'), finished('lead', 2, 'stalled')).map(renumber(4))),
  );
  expect(decide(afterStall, snapshot({}), limits)).toEqual({ kind: 'end', stopReason: 'stalled' });
});

test('the snapshot offers members only tasks assigned to them while the lead is in a turn', async () => {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'] });
  await store.startRun('t');
  await store.transact('t', ({ board }) => {
    board.createTask({ title: 'Open' }, 'lead');
    board.createTask({ title: 'Mine', assignee: 'b' }, 'lead');
  });
  const planning = foldEvents(log(start(), started('lead', 1, 'start')));
  // A snapshot is read in the transaction that takes it.
  const claimable = (state: typeof planning) =>
    store.transact('t', (rules) => {
      const seen = takeSnapshot(rules, state, limits);
      return { a: seen.agent('a')?.claimable, b: seen.agent('b')?.claimable };
    });
  expect(await claimable(planning)).toEqual({ a: null, b: 'task-2' });
  const after = foldEvents(log(start(), started('lead', 1, 'start'), finished('lead', 1, 'start')));
  expect((await claimable(after)).a).toBe('task-1');
});

/** Events made on their own, numbered to follow `from - 1` earlier ones. */
function renumber(from: number) {
  return (event: TeamEvent, index: number) => ({ ...event, seq: from + index }) as TeamEvent;
}
