import { applyEvent, emptyRunState, MemoryStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { demoTeam } from '../../src/cli/demo.js';
import { renderLive } from '../../src/cli/view/live-view.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { inTerminal, screen } from '../helpers/terminal.js';

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
  const size = { cols: 110, rows: 50 };
  const { code, output } = await inTerminal(size, ['demo'], tempFolder());
  expect(code).toBe(0);
  // Drawn many times (the clock and every event redraw it) …
  expect(plain(output).split('agent-teams · newsroom-demo').length - 1).toBeGreaterThan(3);
  // … in place: the terminal holds one board, and the answer below it.
  const { all } = await screen(size, output);
  const boards = all.flatMap((line, index) =>
    line.startsWith('agent-teams · newsroom-demo') ? [index] : [],
  );
  expect(boards).toHaveLength(1);
  const below = all.slice(boards[0]).join('\n');
  expect(below).toContain('Why the sea breathes.');
  expect(below).toContain('That was a scripted model.');
});
