import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamRunResult, type TeamTask } from 'agent-teams';
import { expect, test } from 'vitest';
import { runScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';

const fixture = fileURLToPath(new URL('./fixtures/durable-run.mjs', import.meta.url));

function logOf(root: string): TeamEvent[] {
  try {
    const config = JSON.parse(readFileSync(path.join(root, 'teams/durable/config.json'), 'utf8'));
    const lines = readFileSync(path.join(root, `runs/${config.runId}/events.jsonl`), 'utf8').split('\n');
    lines.pop();
    return lines.map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** Starts a fresh run and kills it with SIGKILL as soon as `when` holds for its log. */
async function killWhen(root: string, when: (events: TeamEvent[]) => boolean): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [fixture, root, 'fresh'], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for (;;) {
    if (when(logOf(root))) break;
    if (child.exitCode !== null) throw new Error('the run ended before the kill point');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  await exited;
}

const count = (type: TeamEvent['type']) => (events: TeamEvent[]) =>
  events.filter((event) => event.type === type).length;

test.each([
  ['while the lead is still planning', (events: TeamEvent[]) => count('team:task-created')(events) >= 2],
  [
    'with members in the middle of their tasks',
    (events: TeamEvent[]) => count('team:task-completed')(events) >= 2,
  ],
  [
    'during the final answer',
    (events: TeamEvent[]) =>
      events.some((event) => event.type === 'team:member-started' && event.data.reason === 'synthesis'),
  ],
])(
  'a run killed %s resumes in a new process and completes, losing and redoing nothing',
  async (_when, when) => {
    const root = tempFolder();
    await killWhen(root, when);
    const before = logOf(root);
    const store = new FileStore({ root });
    const finishedBefore = (await store.transact('durable', ({ board }) => board.listTasks())).filter(
      (task) => task.status === 'completed',
    );

    const output = await runScript(fixture, [root, 'resume']);
    const result = JSON.parse(output.trim().split('\n').at(-1) as string) as TeamRunResult;
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.output).toBe('Final: 6 results');
    expect(result.runId).toBe(before[0]?.runId);

    const after = new FileStore({ root });
    const tasks = await after.transact('durable', ({ board }) => board.listTasks());
    expect(tasks.map((task) => task.status)).toEqual(Array(6).fill('completed'));
    // A task finished before the crash is exactly as it was.
    for (const task of finishedBefore) expect(tasks.find((t: TeamTask) => t.id === task.id)).toEqual(task);

    const log = logOf(root);
    expect(log.slice(0, before.length)).toEqual(before);
    expect(log.filter((event) => event.type === 'team:resumed')).toHaveLength(1);
    // Each task was completed once, and each turn number used once per agent, but for the
    // replay of a turn the crash cut, which is that turn again.
    for (const task of tasks) {
      expect(
        log.filter((event) => event.type === 'team:task-completed' && event.data.task.id === task.id),
      ).toHaveLength(1);
    }
    const starts = log.filter((event) => event.type === 'team:member-started');
    const turns = starts.filter((event) => !event.data.replay).map((e) => `${e.data.member}#${e.data.turn}`);
    expect(new Set(turns).size).toBe(turns.length);
    const replays = starts.filter((event) => event.data.replay).map((e) => `${e.data.member}#${e.data.turn}`);
    expect(new Set(replays).size).toBe(replays.length);
    for (const replay of replays) expect(turns).toContain(replay);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
    // Every message sent reached its reader, and none is left unread.
    const inboxes = await after.transact('durable', ({ mailbox }) =>
      Object.fromEntries(['lead', 'a', 'b', 'c'].map((agent) => [agent, mailbox.messages(agent)])),
    );
    for (const event of log) {
      if (event.type !== 'team:message-sent') continue;
      for (const reader of event.data.to)
        expect(inboxes[reader]?.map((message) => message.id)).toContain(event.data.id);
    }
    expect(
      Object.values(inboxes)
        .flat()
        .filter((message) => message.readAt === null),
    ).toEqual([]);
  },
);

test('a run another live process is running cannot be restarted or resumed under it', async () => {
  const root = tempFolder();
  const child = spawn(process.execPath, [fixture, root, 'fresh'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  while (count('team:task-created')(logOf(root)) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  const store = new FileStore({ root });
  const busy = { code: 'team-busy', message: expect.stringContaining(`is running in process ${child.pid}`) };
  await expect(store.startRun('durable')).rejects.toMatchObject(busy);
  await expect(store.resumeRun('durable')).rejects.toMatchObject(busy);
  await exited;
  expect(logOf(root).at(-1)?.type).toBe('team:complete');
  // Once it has finished, a new run may start.
  await expect(store.startRun('durable')).resolves.toMatchObject({ name: 'durable' });
});
