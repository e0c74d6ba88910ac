import { createTeamTools, MemoryStore } from 'agent-teams';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { runTool } from '../helpers/tools.js';

// Every team tool's answer stays within promptBudgetTokens (o200k tokens, counted with
// gpt-tokenizer) however long the list or the texts, and what it leaves out can be read.

const BUDGET = 2_000;
const tokens = (value: unknown) => encode(JSON.stringify(value), { disallowedSpecial: new Set() }).length;
// Text that tokenises densely (about 0.7 tokens a character, against 0.25 for English).
const dense = (length: number, seed = 1) =>
  Buffer.from(Array.from({ length }, (_, at) => (at * 7919 + seed * 31) % 256))
    .toString('base64')
    .slice(0, length);
// CJK text without spaces: as dense, and the case where a tokeniser's time grows fastest.
const cjk = (length: number) =>
  Array.from({ length }, (_, at) => String.fromCharCode(0x4e00 + ((at * 31) % 2000))).join('');

async function team(maxTasks = 50) {
  const store = new MemoryStore();
  await store.createTeam('t', { lead: 'lead', members: ['a', 'b'], maxTasks });
  const toolsOf = (agent: string) => {
    const tools = createTeamTools({ store, team: 't', promptBudgetTokens: BUDGET }, agent);
    return async (name: string, input: Record<string, unknown> = {}) => {
      const answer = await runTool(tools, name, input);
      expect(tokens(answer)).toBeLessThanOrEqual(BUDGET);
      return answer;
    };
  };
  return { store, toolsOf };
}

test('get_task cuts a task too long for one answer, and its slices give the whole text back', async () => {
  const { store, toolsOf } = await team();
  const whole = cjk(8_000);
  await store.transact('t', ({ board }) => {
    board.createTask({ title: 'Long', description: dense(50_000, 7) }, 'lead');
    board.claimTask('a', 'task-1');
    board.updateTask('task-1', { status: 'completed', result: whole }, 'a');
  });
  const lead = toolsOf('lead');
  const cut = (await lead('get_task', { taskId: 'task-1' })) as { task: { result: string } };
  expect(cut.task.result).toMatch(/\[cut: \d+ more characters; The \w+ of task-1 is cut here: get_task/);
  let read = '';
  let next: string | undefined = 'start';
  for (let from = 0; next; ) {
    const slice = (await lead('get_task', { taskId: 'task-1', field: 'result', from })) as {
      text: string;
      to: number;
      of: number;
      next?: string;
    };
    expect(slice.of).toBe(8_000);
    read += slice.text;
    from = slice.to;
    next = slice.next;
  }
  expect(read).toBe(whole);
  expect(await lead('get_task', { taskId: 'task-1', field: 'note', from: 5 })).toEqual({
    success: false,
    error: 'The note of task-1 has 0 characters; from 5 is past its end.',
  });
}, 60_000);

test('list_tasks pages a long list of long tasks, each page within the budget, and filters by status', async () => {
  const { store, toolsOf } = await team(200);
  await store.transact('t', ({ board }) => {
    for (let at = 0; at < 120; at++)
      board.createTask({ title: dense(300, at), description: dense(5_000) }, 'lead');
    board.createTask(
      { title: 'Last', dependsOn: Array.from({ length: 120 }, (_, at) => `task-${at + 1}`) },
      'lead',
    );
    board.claimTask('a', 'task-1');
    board.updateTask('task-1', { status: 'completed', result: dense(50_000) }, 'a');
  });
  const a = toolsOf('a');
  const first = (await a('list_tasks')) as { page: number; pages: number; next: string; tasks: unknown[] };
  expect(first).toMatchObject({ page: 1, pages: 25, next: 'list_tasks { page: 2 } shows the next 5' });
  const seen = new Map<string, { dependsOn?: string[] }>();
  for (let page = 1; page <= first.pages; page++) {
    const { tasks } = (await a('list_tasks', { page })) as { tasks: { id: string; dependsOn?: string[] }[] };
    for (const task of tasks) seen.set(task.id, task);
  }
  expect(seen.size).toBe(121);
  expect(seen.get('task-121')?.dependsOn?.at(-1)).toMatch(/^… \d+ more$/);
  expect(await a('list_tasks', { status: 'completed' })).toMatchObject({
    status: 'completed',
    page: 1,
    pages: 1,
  });
  expect(await a('list_tasks', { page: 26 })).toEqual({
    success: false,
    error: 'There are 25 pages; page 26 is past the last.',
  });
});

test('the tasks a member can take are counted, not all named', async () => {
  const { store, toolsOf } = await team(200);
  await store.transact('t', ({ board }) => {
    for (let at = 0; at < 100; at++) board.createTask({ title: `T${at}` }, 'lead');
  });
  const a = toolsOf('a');
  expect(await a('list_tasks')).toMatchObject({ youCanTakeCount: 100 });
  await a('claim_task', { taskId: 'task-1' });
  const done = await a('update_task', { taskId: 'task-1', status: 'completed', result: 'Done' });
  expect(done.youCanTake).toEqual([
    'task-2',
    'task-3',
    'task-4',
    'task-5',
    'task-6',
    'task-7',
    'task-8',
    'task-9',
    'task-10',
    'task-11',
  ]);
  expect(done.youCanTakeCount).toBe(99);
});

test('an answer that echoes a long task is cut to the budget', async () => {
  const { toolsOf } = await team();
  const created = (await toolsOf('lead')('create_task', { title: 'Big', description: dense(50_000) })) as {
    task: { description: string };
  };
  expect(created.task.description).toContain('[cut: ');
});

test('read_inbox gives what fits and leaves the rest unread; read again, every message comes once, in order', async () => {
  const { store, toolsOf } = await team();
  const sent = await store.transact('t', ({ mailbox }) =>
    Array.from({ length: 12 }, (_, at) => mailbox.send('lead', 'a', `${at}: ${dense(3_000, at)}`).id),
  );
  const a = toolsOf('a');
  const got: string[] = [];
  for (let round = 0; round < 20; round++) {
    const { messages, more } = (await a('read_inbox')) as { messages: { id: string }[]; more?: string };
    if (messages.length === 0) break;
    got.push(...messages.map((message) => message.id));
    if (round === 0) expect(more).toMatch(/^\d+ more unread: read_inbox again gives the next$/);
  }
  expect(got).toEqual(sent);
  expect(await store.transact('t', ({ mailbox }) => mailbox.unread('a'))).toEqual([]);
});
