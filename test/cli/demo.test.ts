import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { beforeAll, expect, test } from 'vitest';
import { type CliRun, cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

let cwd: string;
let demo: CliRun;
beforeAll(async () => {
  cwd = tempFolder();
  demo = await cli(['demo', '--fast'], { cwd });
});

test('the demo runs the newsroom with no key, says it is scripted, and how to run a real model', () => {
  expect(demo.code).toBe(0);
  expect(demo.stderr).toBe('');
  expect(demo.stdout).toContain('on a SCRIPTED model');
  // Not a terminal: plain event lines show the whole mechanism.
  expect(demo.stdout).toContain('editor created task-3: Write the article');
  expect(demo.stdout).toMatch(/writer → researcher: Quick check/);
  expect(demo.stdout).toContain('editor starts a synthesis turn');
  expect(demo.stdout).toContain('Why the sea breathes.');
  expect(demo.stdout).toMatch(/completed · 4\/4 tasks · [\d,]+ tokens, unpriced/);
  expect(demo.stdout).toMatch(/\nunpriced: editor, .*: no price for model scripted/);
  expect(demo.stdout).toContain('export OPENAI_API_KEY=');
  // The hint names the example beside the command, so it exists wherever the package is.
  const example = /npx agent-teams run (\S+) --input/.exec(demo.stdout)?.[1] as string;
  expect(example).toBe(fileURLToPath(new URL('../../examples/newsroom.ts', import.meta.url)));
  expect(existsSync(path.resolve(cwd, example))).toBe(true);
});

test('from the repository, the hint is the example’s path from there', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const here = await cli(['demo', '--fast', '--store', path.join(tempFolder(), 'store')], { cwd: root });
  expect(here.code).toBe(0);
  expect(here.stdout).toContain('npx agent-teams run examples/newsroom.ts --input');
  expect(here.stdout).toMatch(/npx agent-teams teams --store \S+store · /);
});

test('the demo leaves a store the inspection commands read', async () => {
  const tasks = await new FileStore({ root: `${cwd}/.agent-teams` }).transact('newsroom-demo', ({ board }) =>
    board.listTasks(),
  );
  expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed', 'completed']);

  const teams = await cli(['teams'], { cwd });
  expect(teams.code).toBe(0);
  expect(teams.stdout).toMatch(
    /newsroom-demo: editor leads researcher, writer, checker\n {2}last run newsroom-demo-\S+ · completed · 4\/4 tasks done/,
  );

  const listed = await cli(['tasks', 'newsroom-demo'], { cwd });
  expect(listed.stdout).toMatch(/task-3 +completed +writer +Write the article \(after task-1, task-2\)/);

  const inbox = await cli(['inbox', 'newsroom-demo', 'researcher'], { cwd });
  expect(inbox.stdout).toMatch(/\[read {2}\] \S+ from writer: Quick check/);

  const logs = await cli(['logs', 'newsroom-demo', '--json'], { cwd });
  const events = logs.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TeamEvent);
  expect(events[0]?.type).toBe('team:start');
  expect(events.at(-1)?.type).toBe('team:complete');
  // --follow on a finished run prints it and returns.
  const followed = await cli(['logs', 'newsroom-demo', '--follow'], { cwd });
  expect(followed.code).toBe(0);
  const tail = followed.stdout.trim().split('\n').slice(-3);
  expect(tail[0]).toMatch(/completed: 4\/4 tasks done/);
  // The summary is the runtime's fold of the log: the same turns and tokens as the run's result.
  expect(tail[1]).toMatch(/^completed · 4\/4 tasks · \d+ lead and \d+ member turns · [\d,]+ tokens, /);
  // The cost is unknown, and the summary says for whom and why.
  expect(tail[2]).toMatch(/^unpriced: editor, researcher, writer, checker: no price for model scripted/);
});

test('inspection errors are one clear line', async () => {
  for (const [args, message] of [
    [['tasks', 'nope'], 'agent-teams: no team "nope" in'],
    [['inbox', 'newsroom-demo', 'nobody'], 'agent-teams: "nobody" is not on the team'],
    [['teams', '--store', 'missing'], 'agent-teams: no store at missing'],
  ] as const) {
    const run = await cli([...args], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  }
});

test('logs --follow prints a run’s events as they come, and stops when it completes', async () => {
  const dir = tempFolder();
  const running = startCli(['demo'], { cwd: dir });
  // Wait until the run exists, then follow it while it goes.
  while (!running.output().includes('created task-1'))
    await new Promise((resolve) => setTimeout(resolve, 20));
  const followed = await cli(['logs', 'newsroom-demo', '--follow'], { cwd: dir });
  const demoRun = await running.done;
  expect(demoRun.code).toBe(0);
  expect(followed.code).toBe(0);
  const lines = followed.stdout.trim().split('\n');
  expect(lines[0]).toContain('newsroom-demo: editor leads researcher, writer, checker');
  expect(lines.at(-3)).toMatch(/completed: 4\/4 tasks done/);
  expect(lines.at(-2)).toMatch(/^completed · 4\/4 tasks/);
  expect(lines.at(-1)).toMatch(/^unpriced: /);
  const runId = /run (newsroom-demo-\S+)/.exec(demoRun.stdout)?.[1] as string;
  const byId = await cli(['logs', 'newsroom-demo', '--run', runId], { cwd: dir });
  expect(byId.stdout).toBe(followed.stdout);
});
