import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { applyEvent, emptyRunState, MemoryStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { demoTeam } from '../../src/cli/demo.js';
import { renderLive } from '../../src/cli/view/live-view.js';
import { tempFolder } from '../helpers/temp-folder.js';

const ESC = String.fromCharCode(27);
const plain = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '');

test('the live view shows agents, the task list in three columns, messages, tokens and time', async () => {
  const team = demoTeam(new MemoryStore(), true);
  const view = emptyRunState();
  const frames: string[] = [];
  team.on('*', (event: TeamEvent) => {
    applyEvent(view, event);
    if (event.type === 'team:task-claimed' && event.data.task.id === 'task-3') {
      frames.push(plain(renderLive(view, Date.parse(event.timestamp), 110).join('\n')));
    }
  });
  await team.run({ input: 'Write a short article about tides' });
  const middle = frames[0] ?? '';
  expect(middle).toMatch(/^agent-teams · newsroom-demo · [\d.]+ s · [\d,]+ tokens · unpriced/);
  expect(middle).toMatch(/ writer +member +working task-3 Write the article/);
  expect(middle).toMatch(/pending \(1\) +in progress \(1\) +completed \(2\)/);
  const end = plain(renderLive(view, Date.now(), 110).join('\n'));
  expect(end).toContain('· completed');
  expect(end).toMatch(/completed \(4\)/);
  expect(end).toContain('writer → researcher: Quick check');
  expect(end).toContain('(auto)');
  expect(end).toMatch(/ checker +member +idle .* 1 turn +[\d,]+ tok +unpriced/);
  // Why the cost is unknown, and for whom: the demo's scripted model has no price.
  expect(end).toMatch(/unpriced: editor, researcher, writer, checker: no price for model scripted/);
});

test('on a terminal the view redraws in place, and the answer is printed below the last frame', async () => {
  const cli = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
  const { stdout } = await promisify(execFile)(
    'script',
    ['-qfec', `stty cols 110 rows 50; node ${cli} demo`, '/dev/null'],
    {
      cwd: tempFolder(),
      env: { ...process.env, TERM: 'xterm' },
    },
  );
  expect(stdout).toContain('\x1b[?25l');
  const redraws = stdout.match(new RegExp(`${ESC}\\[\\d+A\r${ESC}\\[0J`, 'g')) ?? [];
  expect(redraws.length).toBeGreaterThan(3);
  const afterLastFrame = plain(stdout.slice(stdout.lastIndexOf('\x1b[?25h')));
  expect(afterLastFrame).toContain('Why the sea breathes.');
  expect(afterLastFrame).toContain('That was a scripted model.');
});
