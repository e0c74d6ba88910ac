import { PassThrough } from 'node:stream';
import { applyEvent, emptyRunState, MemoryStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { demoTeam } from '../../src/cli/demo.js';
import { eventLine } from '../../src/cli/view/event-line.js';
import { renderLive } from '../../src/cli/view/live-view.js';
import { terminalView } from '../../src/cli/view/terminal-view.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { inTerminal, screen } from '../helpers/terminal.js';
import { until } from '../helpers/until.js';

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

test('while the store cannot be reached the view says so under its header, and for how long the run waits', () => {
  const began = '2026-12-02T10:00:00.000Z';
  const event = <K extends TeamEvent['type']>(type: K, data: TeamEvent<K>['data'], seq: number) =>
    ({ type, data, seq, team: 't', runId: 'r', timestamp: began }) as TeamEvent;
  const error = 'connect ECONNREFUSED 127.0.0.1:5432';
  const outage = (ended: string | null) =>
    event('team:store-outage', { began, error, waitMs: 300_000, ended }, 1);
  const view = emptyRunState();
  applyEvent(view, event('team:start', { lead: 'lead', members: ['a'], input: 'Go' }, 1));
  const frame = (now: number, shown?: TeamEvent) =>
    plain(
      renderLive(
        view,
        now,
        110,
        undefined,
        shown?.type === 'team:store-outage' ? shown.data : undefined,
      ).join('\n'),
    );
  expect(frame(Date.parse(began) + 12_000, outage(null)).split('\n')[1]).toBe(
    ` the store cannot be reached (12.0 s; the run waits up to 300.0 s): ${error}`,
  );
  expect(frame(Date.parse(began) + 21_000)).not.toContain('cannot be reached');
  // Lines of the plain view (not a terminal) and `agent-teams logs`.
  expect(eventLine(outage(null), Date.parse(began))).toBe(
    `[  0.0 s] the store cannot be reached (${error}): the run waits for it, up to 300.0 s`,
  );
  expect(eventLine(outage('2026-12-02T10:00:20.000Z'), Date.parse(began))).toBe(
    '[  0.0 s] the store answers again, after 20.0 s',
  );
});

test('the terminal view shows a store outage from its live event until its end is logged', async () => {
  const began = '2026-12-02T10:00:00.000Z';
  const event = <K extends TeamEvent['type']>(type: K, data: TeamEvent<K>['data'], seq: number) =>
    ({ type, data, seq, team: 't', runId: 'r', timestamp: began }) as TeamEvent;
  const outage = (ended: string | null, seq: number) =>
    event('team:store-outage', { began, error: 'connect ECONNREFUSED', waitMs: 300_000, ended }, seq);
  let written = '';
  const out = Object.assign(new PassThrough(), { columns: 100, rows: 40, isTTY: true });
  out.on('data', (chunk) => {
    written += chunk;
  });
  let ended: () => void = () => {};
  const over = new Promise<void>((resolve) => {
    ended = resolve;
  });
  async function* events() {
    yield event('team:start', { lead: 'lead', members: ['a'], input: 'Go' }, 1);
    yield outage(null, 1);
    await over;
    yield outage('2026-12-02T10:00:20.000Z', 2);
  }
  const view = terminalView(events(), out as unknown as NodeJS.WriteStream);
  await until(() => plain(written).includes('the store cannot be reached'));
  ended();
  await view.stop();
  // The last board, printed whole after the view stops, has the outage over.
  const last = plain(written).split('agent-teams · t').at(-1) ?? '';
  expect(last).not.toContain('cannot be reached');
});
