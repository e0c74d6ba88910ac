import { MemoryStore, type TeamEvent, type TeamRules, type TeamStore } from 'agent-teams';
import { afterEach, expect, test, vi } from 'vitest';
import { chaosStore } from '../helpers/chaos-store.js';
import { seeds } from '../helpers/seeds.js';

const setup = { lead: 'editor', members: ['a', 'b', 'c'] };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

/** The same calls, one after another, so that two stores see them in the same order. */
async function workload(store: TeamStore): Promise<void> {
  store.subscribe('t', () => {});
  await store.createTeam('t', setup);
  const { runId } = await store.startRun('t');
  for (let n = 1; n <= 20; n++) {
    await store.transact('t', ({ board }) => board.createTask({ title: `Task ${n}` }, 'editor'));
  }
  await store.getTeam('t');
  await store.listTeams();
  await store.leaveRun('t', runId as string);
  const info = await store.resumeRun('t');
  await store.readEvents(info?.info.runId ?? '');
  await store.close();
}

test.each(seeds(3))('the same seed gives the same delays, another seed others (seed %i)', async (seed) => {
  const first = chaosStore(new MemoryStore(), seed);
  const again = chaosStore(new MemoryStore(), seed);
  const other = chaosStore(new MemoryStore(), seed + 1);
  for (const store of [first, again, other]) await workload(store);

  expect(first.pauses.map((call) => call.method)).toEqual([
    'createTeam',
    'startRun',
    ...Array(20).fill('transact'),
    'getTeam',
    'listTeams',
    'leaveRun',
    'resumeRun',
    'readEvents',
    'close',
  ]);
  expect(again.pauses).toEqual(first.pauses);
  expect(again.notificationDelays).toEqual(first.notificationDelays);
  expect(first.notificationDelays).toHaveLength(20);
  expect(other.pauses).not.toEqual(first.pauses);
});

test('the delays mix timers and none, adding about a millisecond a call', async () => {
  const many = chaosStore(new MemoryStore(), 7);
  await many.createTeam('t', setup);
  for (let n = 0; n < 300; n++) await many.transact('t', ({ board }) => board.listTasks());
  const pauses = many.pauses.flatMap((call) => [call.before, call.after]);
  const timers = pauses.filter((pause) => pause.timerMs !== undefined);
  expect(timers.length).toBeGreaterThan(0);
  expect(timers.length).toBeLessThan(pauses.length / 4);
  const msPerCall = timers.reduce((sum, pause) => sum + (pause.timerMs ?? 0), 0) / many.pauses.length;
  expect(msPerCall).toBeLessThan(1);
  expect(new Set(pauses.map((pause) => pause.yields))).toEqual(new Set([0, 1, 2, 3]));
});

test('transact runs the caller’s own callback in the inner store, and its result and errors pass through', async () => {
  const inner = new MemoryStore();
  const received: unknown[] = [];
  const transact = inner.transact.bind(inner);
  inner.transact = <T>(name: string, fn: (rules: TeamRules) => T) => {
    received.push(fn);
    return transact(name, fn);
  };
  const store = chaosStore(inner, 1);
  await store.createTeam('t', setup);

  const create = ({ board }: TeamRules) => board.createTask({ title: 'Draft' }, 'editor');
  expect(await store.transact('t', create)).toMatchObject({ id: 'task-1', status: 'pending' });
  expect(received).toEqual([create]);

  await expect(
    store.transact('t', ({ board }) => {
      board.createTask({ title: 'Kept?' }, 'editor');
      board.createTask({ title: 'Bad', dependsOn: ['nope'] }, 'editor');
    }),
  ).rejects.toMatchObject({ code: 'dependency-not-found' });
  await expect(store.getTeam('nobody')).resolves.toBeUndefined();
  expect(await store.transact('t', ({ board }) => board.listTasks().map((task) => task.title))).toEqual([
    'Draft',
  ]);
});

test('concurrent claims through it still never hand out one task twice', async () => {
  const store = chaosStore(new MemoryStore(), 5);
  await store.createTeam('t', setup);
  await store.transact('t', ({ board }) => {
    for (let n = 0; n < 3; n++) board.createTask({ title: `T${n}` }, 'editor');
  });
  const claimed = await Promise.all(
    setup.members.map((member) => store.transact('t', ({ board }) => board.claimTask(member)?.id)),
  );
  expect(new Set(claimed)).toEqual(new Set(['task-1', 'task-2', 'task-3']));
});

/** Events as listeners get them, to compare what the wrapper delivers with the inner store's. */
const types = (batches: (readonly TeamEvent[])[]) => batches.map((batch) => batch.map((event) => event.type));

test('notifications arrive after the commit, every batch, in commit order', async () => {
  vi.useFakeTimers();
  const inner = new MemoryStore();
  const store = chaosStore(inner, 3);
  await inner.createTeam('t', setup);
  const direct: (readonly TeamEvent[])[] = [];
  const late: (readonly TeamEvent[])[] = [];
  inner.subscribe('t', (events) => direct.push(events));
  store.subscribe('t', (events) => late.push(events));

  for (let n = 1; n <= 12; n++) {
    await inner.transact('t', ({ board, mailbox }) => {
      board.createTask({ title: `T${n}` }, 'editor');
      if (n % 3 === 0) mailbox.send('editor', 'everyone', `update ${n}`);
    });
  }
  expect(direct).toHaveLength(12);
  expect(late).toEqual([]);

  await vi.runAllTimersAsync();
  expect(late).toEqual(direct);
  expect(types(late)[2]).toEqual(['team:task-created', 'team:message-sent']);
});

test('notifications through chaotic commits are complete and in order', async () => {
  const inner = new MemoryStore();
  const store = chaosStore(inner, 11);
  await store.createTeam('t', setup);
  const direct: (readonly TeamEvent[])[] = [];
  inner.subscribe('t', (events) => direct.push(events));
  const late: (readonly TeamEvent[])[] = [];
  const allArrived = new Promise<void>((resolve) => {
    store.subscribe('t', (events) => {
      late.push(events);
      if (late.length === 30) resolve();
    });
  });
  await Promise.all(
    Array.from({ length: 30 }, (_, n) =>
      store.transact('t', ({ board }) => board.createTask({ title: `T${n}` }, 'editor')),
    ),
  );
  await allArrived;
  expect(late).toEqual(direct);
});

test('unsubscribing stops deliveries still pending, and only for that listener', async () => {
  vi.useFakeTimers();
  const inner = new MemoryStore();
  const store = chaosStore(inner, 9);
  await inner.createTeam('t', setup);
  const stopped: (readonly TeamEvent[])[] = [];
  const kept: (readonly TeamEvent[])[] = [];
  const stop = store.subscribe('t', (events) => stopped.push(events));
  store.subscribe('t', (events) => kept.push(events));

  await inner.transact('t', ({ board }) => board.createTask({ title: 'Before' }, 'editor'));
  await vi.runAllTimersAsync();
  await inner.transact('t', ({ board }) => board.createTask({ title: 'Pending' }, 'editor'));
  stop();
  await inner.transact('t', ({ board }) => board.createTask({ title: 'After' }, 'editor'));
  await vi.runAllTimersAsync();

  const titles = (batches: (readonly TeamEvent[])[]) =>
    batches.map((batch) => (batch[0] as TeamEvent<'team:task-created'>).data.task.title);
  expect(titles(stopped)).toEqual(['Before']);
  expect(titles(kept)).toEqual(['Before', 'Pending', 'After']);
});

test('seeds are 1..count, more with CHAOS_SEEDS, one with CHAOS_SEED to replay it', () => {
  vi.stubEnv('CHAOS_SEED', '');
  vi.stubEnv('CHAOS_SEEDS', '');
  expect(seeds(3)).toEqual([1, 2, 3]);
  vi.stubEnv('CHAOS_SEEDS', '5');
  expect(seeds(3)).toEqual([1, 2, 3, 4, 5]);
  vi.stubEnv('CHAOS_SEED', '37');
  expect(seeds(3)).toEqual([37]);
  vi.stubEnv('CHAOS_SEED', 'abc');
  expect(() => seeds(3)).toThrow('CHAOS_SEED must be an integer, not "abc".');
  vi.stubEnv('CHAOS_SEED', '');
  vi.stubEnv('CHAOS_SEEDS', '0');
  expect(() => seeds(3)).toThrow('CHAOS_SEEDS must be a positive integer, not "0".');
});
