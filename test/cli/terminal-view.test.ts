import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';
import { inTerminal, screen } from '../helpers/terminal.js';

// What a person sees on a terminal of a given size, and can scroll back to (see terminal.ts).

const slowTeam = fileURLToPath(new URL('./fixtures/slow-team.ts', import.meta.url));

const headers = (lines: readonly string[]) =>
  lines.filter((line) => line.startsWith('agent-teams · slow · '));

test('at 80×24, Ctrl-C leaves the final board and the stopping line readable; a resume shows the whole run', {
  timeout: 120_000,
}, async () => {
  const cwd = tempFolder();
  const size = { cols: 80, rows: 24 };
  const stopped = await inTerminal(size, ['run', slowTeam, '--input', 'Do four things'], cwd, (output) =>
    /completed \([1-3]\)/.test(output),
  );
  expect(stopped.code).toBe(130);
  const { all, visible } = await screen(size, stopped.output);
  // One board: the frames were redrawn in place, and the last stays (whole) above the summary.
  expect(headers(all)).toHaveLength(1);
  expect(headers(all)[0]).toMatch(/· aborted$/);
  const stopping = all.filter((line) => line === 'Stopping the run cleanly (Ctrl-C again to quit at once)…');
  expect(stopping).toHaveLength(1);
  expect(visible.join('\n')).toMatch(/aborted · [1-3]\/4 tasks/);
  expect(visible.join('\n')).toContain('Continue it with: npx agent-teams resume');
  expect(all.every((line) => line.length <= size.cols)).toBe(true);

  // The resumed run's board is the whole run: the tasks done before the stop are on it.
  const resumed = await inTerminal(size, ['resume', slowTeam], cwd);
  expect(resumed.code).toBe(0);
  const after = await screen(size, resumed.output);
  expect(headers(after.all)).toHaveLength(1);
  expect(after.all.join('\n')).toMatch(/completed \(4\)/);
  expect(after.all.join('\n')).toContain('All four done.');
});

test('at 100×12 the board is cut to the window while it runs, never a scrolling pile of frames', {
  timeout: 120_000,
}, async () => {
  const size = { cols: 100, rows: 12 };
  const run = await inTerminal(size, ['run', slowTeam, '--input', 'Do four things'], tempFolder());
  expect(run.code).toBe(0);
  // A frame taller than the window would have scrolled, leaving a copy of its top each redraw.
  expect(run.output).toMatch(/… \d+ more lines \(a taller window shows them\)/);
  const { all } = await screen(size, run.output);
  expect(headers(all)).toHaveLength(1);
  expect(all.some((line) => line.includes('more lines (a taller window shows them)'))).toBe(false);
  // The final board is printed whole, then the answer.
  expect(all.join('\n')).toMatch(/completed \(4\)/);
  expect(all.join('\n')).toContain('All four done.');
});
