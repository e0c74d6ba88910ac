import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { expectBoardTasks, taskTurns } from '../helpers/board-run.js';
import { cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { until } from '../helpers/until.js';
import { PERSON_TASK } from './fixtures/board-team.js';
import { VAGUE } from './fixtures/judged-team.js';

const boardTeam = fileURLToPath(new URL('./fixtures/board-team.ts', import.meta.url));
const judgedTeam = fileURLToPath(new URL('./fixtures/judged-team.ts', import.meta.url));

test('task delete, assign and add from another shell change a running team’s board, and the run follows it', async () => {
  const cwd = tempFolder();
  const running = startCli(['run', boardTeam, '--input', 'Hold the line'], { cwd });
  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  const events = async () => {
    const runId = (await store.getTeam('board'))?.runId;
    return runId ? store.readEvents(runId) : [];
  };
  // a holds task-1 until the person's task is done: the plan waits for the person. The plan's
  // tasks are created one by one: task-3 may come after a claimed task-1.
  await until(async () => {
    if (running.child.exitCode !== null) throw new Error(`the run ended early:\n${running.output()}`);
    const log = await events();
    return (
      log.some((event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1') &&
      log.some((event) => event.type === 'team:task-created' && event.data.task.id === 'task-3')
    );
  });

  const deleted = await cli(['task', 'delete', 'board', 'task-2', '--reason', 'Polish is not needed'], {
    cwd,
  });
  expect(deleted.stderr).toBe('');
  expect(deleted.stdout).toBe('deleted task-2 "Polish" from board: Polish is not needed\n');
  const refused = await cli(['task', 'edit', 'board', 'task-1', '--add-depends-on', 'task-3'], { cwd });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe(
    'agent-teams: The task task-1 is in progress with a: only a pending task changes. Message a, or release the task first.\n',
  );
  const cycle = await cli(['task', 'edit', 'board', 'task-3', '--add-depends-on', 'task-3'], { cwd });
  expect(cycle.stderr).toBe('agent-teams: task-3 cannot wait for itself.\n');
  const given = await cli(['task', 'assign', 'board', 'task-3', 'c'], { cwd });
  expect(given.stdout).toBe('gave task-3 "Review" (pending, for c, after task-1) in board\n');
  const added = await cli(['task', 'add', 'board', PERSON_TASK, '--assignee', 'b'], { cwd });
  expect(added.stdout).toBe(`added task-4 "${PERSON_TASK}" (pending, for b) to board\n`);

  const ended = await running.done;
  expect(ended.stderr).toBe('');
  expect(ended.code).toBe(0);
  expect(ended.stdout).toContain('completed · 3/3 tasks (1 deleted)');
  expectBoardTasks(await store.transact('board', ({ board }) => board.listTasks()));
  expect(taskTurns(await events()).sort()).toEqual(['a task-1', 'b task-4', 'c task-3']);
  const shown = await cli(['tasks', 'board'], { cwd });
  expect(shown.stdout).toMatch(
    /task-2 +deleted +- +Polish \(after task-1\)\n +→ deleted: Polish is not needed/,
  );
  const logs = await cli(['logs', 'board'], { cwd });
  expect(logs.stdout).toMatch(/\] user deleted task-2 \(Polish is not needed\)\n/);
  expect(logs.stdout).toMatch(/\] user gave task-3 to c\n/);
  expect(logs.stdout).toMatch(/\] user created task-4: Count the boats\n/);
  const late = await cli(['task', 'add', 'board', 'Too late'], { cwd });
  expect(late.code).toBe(1);
  expect(late.stderr).toMatch(/^agent-teams: The run \S+ has ended \(completed\)\.\n$/);
}, 60_000);

test('task edit changes a task’s text, dependencies and member in one commit; a bad edit is one line and changes nothing', async () => {
  const cwd = tempFolder();
  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  await store.createTeam('newsroom', { lead: 'editor', members: ['writer', 'checker'] });
  await store.startRun('newsroom');
  await store.transact('newsroom', ({ board }) => {
    board.createTask({ title: 'Research' }, 'editor');
    board.createTask({ title: 'Draft', dependsOn: ['task-1'] }, 'editor');
  });
  const edited = await cli(
    [
      'task',
      'edit',
      'newsroom',
      'task-2',
      '--title',
      'Draft the piece',
      '--remove-depends-on',
      'task-1',
      '--add-depends-on',
      'task-3,task-4',
      '--assignee',
      'writer',
    ],
    { cwd },
  );
  expect(edited.code).toBe(1);
  expect(edited.stderr).toBe(
    'agent-teams: The task task-3 is not on the list, so task-2 cannot wait for it; list_tasks shows the ids.\n',
  );
  const before = await store.transact('newsroom', ({ board }) => board.getTask('task-2'));
  expect(before).toMatchObject({ title: 'Draft', dependsOn: ['task-1'], assignee: null });
  await cli(['task', 'add', 'newsroom', 'Outline', '--depends-on', 'task-1'], { cwd });
  const again = await cli(
    [
      'task',
      'edit',
      'newsroom',
      'task-2',
      '--title',
      'Draft the piece',
      '--add-depends-on',
      'task-3',
      '--assignee',
      'writer',
    ],
    { cwd },
  );
  expect(again.stderr).toBe('');
  expect(again.stdout).toBe(
    'changed task-2 "Draft the piece" (pending, for writer, after task-1, task-3) in newsroom\n',
  );
  const logs = await cli(['logs', 'newsroom'], { cwd });
  expect(logs.stdout).toMatch(
    /\] user changed task-2: its title; it waits for task-3\n.*\] user gave task-2 to writer\n/s,
  );
  const nothing = await cli(['task', 'edit', 'newsroom', 'task-2'], { cwd });
  expect(nothing.stderr).toContain('nothing to change: give --title');
  const noReason = await cli(['task', 'delete', 'newsroom', 'task-2'], { cwd });
  expect(noReason.code).toBe(1);
  expect(noReason.stderr).toContain("required option '--reason <text>' not specified");
  expect(await store.transact('newsroom', ({ board }) => board.getTask('task-2')?.status)).toBe('pending');
});

test('task assign --none takes a task back to the list, from the member working on it too; a member and --none, or neither, is refused', async () => {
  const cwd = tempFolder();
  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  await store.createTeam('newsroom', { lead: 'editor', members: ['writer', 'checker'] });
  await store.startRun('newsroom');
  await store.transact('newsroom', ({ board }) => {
    board.createTask({ title: 'Research', assignee: 'writer' }, 'editor');
    board.createTask({ title: 'Draft', assignee: 'checker' }, 'editor');
    board.claimTask('checker', 'task-2');
  });
  const both = await cli(['task', 'assign', 'newsroom', 'task-1', 'checker', '--none'], { cwd });
  expect(both.code).toBe(1);
  expect(both.stderr).toBe('agent-teams: give a member or --none, not both (checker and --none)\n');
  const neither = await cli(['task', 'assign', 'newsroom', 'task-1'], { cwd });
  expect(neither.code).toBe(1);
  expect(neither.stderr).toBe(
    'agent-teams: give the member to assign the task to, or --none to take it back to the list\n',
  );
  const busy = await cli(['task', 'assign', 'newsroom', 'task-2', 'writer'], { cwd });
  expect(busy.stderr).toBe(
    'agent-teams: The task task-2 is in progress with checker; take it back to the list first (an assignee of none), then assign it.\n',
  );
  const pending = await cli(['task', 'assign', 'newsroom', 'task-1', '--none'], { cwd });
  expect(pending.stderr).toBe('');
  expect(pending.stdout).toBe('took back task-1 "Research" (pending) in newsroom\n');
  const held = await cli(['task', 'assign', 'newsroom', 'task-2', '--none'], { cwd });
  expect(held.stdout).toBe('took back task-2 "Draft" (pending) in newsroom\n');
  const [research, draft] = await store.transact('newsroom', ({ board }) => board.listTasks());
  expect(research).toMatchObject({ status: 'pending', assignee: null, owner: null });
  expect(draft).toMatchObject({ status: 'pending', assignee: null, owner: null });
  const told = await store.transact('newsroom', ({ mailbox }) =>
    ['writer', 'checker'].map((member) => mailbox.messages(member).map((message) => message.content)),
  );
  expect(told).toEqual([
    [
      'user took task-1 ("Research") back from you: it is on the list for anyone again, no longer yours to do.',
    ],
    ['user took task-2 ("Draft") back from you: it is on the list for anyone again, no longer yours to do.'],
  ]);
  const assign = await cli(['task', 'assign', '--help'], { cwd });
  expect(assign.stdout).toContain('--none');
  expect(assign.stdout).toContain('npx agent-teams task assign newsroom task-3 --none');
});

test('task add --file has the team’s onTaskCreated hook judge the task: a rejected one is not added; an unknown team in the file is said', async () => {
  const cwd = tempFolder();
  const running = startCli(['run', judgedTeam, '--input', 'Write an intro'], { cwd });
  const store = new FileStore({ root: path.join(cwd, '.agent-teams') });
  await until(async () => {
    if (running.child.exitCode !== null) throw new Error(`the run ended early:\n${running.output()}`);
    const runId = (await store.getTeam('judged'))?.runId;
    const events = runId ? await store.readEvents(runId) : [];
    return events.some((event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1');
  });
  const rejected = await cli(['task', 'add', 'judged', 'A vague task', '--file', judgedTeam], { cwd });
  expect(rejected.code).toBe(1);
  expect(rejected.stderr).toBe(`agent-teams: The task "A vague task" was not created: ${VAGUE}\n`);
  // Without the file the hook is not at hand: refused, rather than let past it.
  const unjudged = await cli(['task', 'add', 'judged', 'A vague task'], { cwd });
  expect(unjudged.code).toBe(1);
  expect(unjudged.stderr).toBe(
    "agent-teams: The team judged judges every new task with its onTaskCreated hook, which is not at hand here: add the task with the team's file (agent-teams task add … --file <file>, or the Studio started on that file).\n",
  );
  const elsewhere = await cli(['task', 'add', 'other', 'Write the intro', '--file', judgedTeam], { cwd });
  expect(elsewhere.stderr).toBe(
    `agent-teams: ${judgedTeam} defines no team named "other"; its teams: judged\n`,
  );
  const added = await cli(['task', 'add', 'judged', 'Write the intro', '--file', judgedTeam], { cwd });
  expect(added.stderr).toBe('');
  expect(added.stdout).toBe('added task-2 "Write the intro" (pending) to judged\n');
  const ended = await running.done;
  expect(ended.code).toBe(0);
  const runId = (await store.getTeam('judged'))?.runId as string;
  const events = await store.readEvents(runId);
  expect(events.flatMap((event) => (event.type === 'team:hook-rejected' ? [event.data] : []))).toEqual([
    { hook: 'onTaskCreated', agent: 'user', taskId: null, feedback: VAGUE },
  ]);
  expect(
    events.flatMap((event) => (event.type === 'team:task-created' ? [event.data.task.title] : [])),
  ).toEqual(['Hold the line', 'Write the intro']);
}, 60_000);

test('task --help lists its four commands; each says what it takes, with an example', async () => {
  const cwd = tempFolder();
  const help = await cli(['task', '--help'], { cwd });
  for (const command of ['add', 'edit', 'assign', 'delete'])
    expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
  for (const command of ['add', 'edit', 'assign', 'delete']) {
    const own = await cli(['task', command, '--help'], { cwd });
    expect(own.stdout).toContain(`Usage: agent-teams task ${command}`);
    expect(own.stdout).toContain('--store <dir>');
    expect(own.stdout).toMatch(/Example:\n {2}\$ npx agent-teams task /);
  }
});
