import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { runScript, startScript } from '../helpers/child.js';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { inTerminal, screen } from '../helpers/terminal.js';
import { NUDGE } from '../studio/fixtures/studio-teams.js';

// `--panes` in a real tmux server of the test's own (`tmux -L`, killed at the end): the
// command runs in a tmux pane (a pseudo-terminal), opens its panes there, and what each pane
// shows is read back with capture-pane. Every wait is for something on a pane.

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const NEWSROOM = fileURLToPath(new URL('./fixtures/newsroom-team.ts', import.meta.url));
const elsewhere = fileURLToPath(new URL('../studio/fixtures/run-elsewhere.ts', import.meta.url));
const joining = fileURLToPath(new URL('./fixtures/join-member.ts', import.meta.url));

const socket = `agent-teams-test-${randomBytes(6).toString('hex')}`;
/** The test's tmux server: its own socket, no configuration file, UTF-8. */
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', '-u', ...args], { encoding: 'utf8' });
const until = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 50_000, interval: 100 });

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // No server was started.
  }
});

/** A session running `command`; the pane stays after it ends, with its exit status shown. */
function session(name: string, command: string): void {
  tmux(
    'new-session',
    '-d',
    '-s',
    name,
    '-x',
    '220',
    '-y',
    '60',
    `${command}; echo "exit=$?"; exec tail -f /dev/null`,
  );
}

/** The session's panes by title. */
function panes(name: string): Map<string, string> {
  const lines = tmux('list-panes', '-t', name, '-F', '#{pane_title}\t#{pane_id}').trim().split('\n');
  return new Map(lines.map((line) => line.split('\t') as [string, string]));
}

/** Everything a pane holds, its history and its screen, wrapped lines joined. */
const shown = (pane: string | undefined) => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', pane ?? '');

const quoted = (args: string[]) => args.map((arg) => `'${arg}'`).join(' ');

test('run --panes inside tmux: the board, and a pane per agent with its turns and streamed text', async () => {
  const store = path.join(tempFolder(), 'store');
  const args = ['run', NEWSROOM, '--input', 'Write a short article about tides', '--panes', '--store', store];
  session('run', `node ${CLI} ${quoted(args)}`);
  await until(() => shown(panes('run').get('agent-teams board'))).toContain('exit=0');
  const byTitle = panes('run');
  // The board first (on the left), then the agents in the team's order.
  expect([...byTitle.keys()]).toEqual(['agent-teams board', 'editor', 'researcher', 'writer', 'checker']);
  const board = shown(byTitle.get('agent-teams board'));
  // Drawn at its pane's width from the first frame: nothing of a wider one is left above it.
  expect(board.trimStart()).toMatch(
    /^agent-teams · newsroom · [\d.]+ s · [\d,]+ tokens · unpriced · completed\n/,
  );
  expect(board).toMatch(/completed · 4\/4 tasks/);

  const editor = shown(byTitle.get('editor'));
  expect(editor).toMatch(/^editor$/m);
  expect(editor).toContain('turn 1 · start');
  expect(editor).toContain('→ create_task {"title":"Collect the facts about tides"');
  expect(editor).toContain('← create_task: {"success":true,"task":{"id":"task-1"');
  expect(editor).toMatch(/turn 2 · synthesis/);
  // Each agent's text as it streamed, said once.
  const researcher = shown(byTitle.get('researcher'));
  expect(researcher).toContain('turn 1 · task · task-1 Collect the facts about tides');
  expect(researcher.match(/says: The Moon/g)).toHaveLength(1);
  const writer = shown(byTitle.get('writer'));
  expect(writer).toContain('→ send_message {"to":"researcher","content":"Quick check');
  expect(writer).toContain('says: Why the sea breathes.');
  for (const name of ['editor', 'researcher', 'writer', 'checker'])
    expect(shown(byTitle.get(name))).toContain('— the run ended: completed · Ctrl-C closes this pane');
}, 60_000);

test('watch --panes follows a run another process runs, pane by pane (joining and leaving), until it ends', async () => {
  const cwd = tempFolder();
  const store = path.join(cwd, 'store');
  // The checker's task waits for the person's word to the writer (see studio-teams.ts).
  const other = startScript(elsewhere, [store]);
  const runId = (await other.line(/^newsroom-demo-/)).trim();
  session('watch', `node ${CLI} ${quoted(['watch', 'newsroom-demo', '--panes', '--store', store])}`);
  await until(() => [...panes('watch').keys()].sort()).toEqual([
    'agent-teams board',
    'checker',
    'editor',
    'researcher',
    'writer',
  ]);
  const pane = (name: string) => shown(panes('watch').get(name));
  await until(() => pane('checker')).toContain('turn 1 · task · task-4 Check every fact in the draft');
  expect(pane('writer')).toContain('says: Why the sea breathes.');
  // A member who joins gets a pane; one who leaves says so in it.
  await runScript(joining, [store, 'newsroom-demo', 'helper']);
  await until(() => [...panes('watch').keys()]).toContain('helper');
  const shutdown = ['shutdown', 'newsroom-demo', 'helper', '--force', '--store', store];
  expect((await cli(shutdown, { cwd })).code).toBe(0);
  await until(() => pane('helper')).toContain('— helper left the team (shutdown)');
  expect((await cli(['send', 'newsroom-demo', 'writer', NUDGE, '--store', store], { cwd })).code).toBe(0);
  await until(() => pane('agent-teams board')).toContain('exit=0');
  expect(pane('agent-teams board')).toContain(`completed · run ${runId}`);
  expect(pane('writer')).toContain('Noted: metric units throughout.');
  expect(pane('checker')).toContain('— the run ended: completed');
  await other.line(/^done completed$/);
  expect(await other.end()).toBe(0);
}, 60_000);

test('--panes outside tmux says so and shows the usual live view', async () => {
  const size = { cols: 120, rows: 40 };
  const store = path.join(tempFolder(), 'store');
  const args = ['run', NEWSROOM, '--input', 'Write a short article about tides', '--panes', '--store', store];
  const { code, output } = await inTerminal(size, args, tempFolder(), undefined, { TMUX: undefined });
  expect(code).toBe(0);
  const { all } = await screen(size, output);
  const text = all.join('\n');
  expect(text).toContain('--panes splits a tmux window: run the command inside tmux for a pane per agent.');
  expect(text).toMatch(/agent-teams · newsroom · .* · completed/);
  expect(text).toMatch(/completed · 4\/4 tasks/);
}, 60_000);

test('--panes and --json do not go together', async () => {
  const { code, stderr } = await cli(['run', NEWSROOM, '--input', 'x', '--panes', '--json'], {
    cwd: tempFolder(),
  });
  expect(code).not.toBe(0);
  expect(stderr).toContain("option '--panes' cannot be used with option '--json'");
});
