import { applyEvent, emptyRunState, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { LatestLines } from '../../src/cli/view/latest-lines.js';
import { renderLive } from '../../src/cli/view/live-view.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

const ESC = String.fromCharCode(27);
const plain = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, 'g'), '');

const script = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? { toolCalls: [createTask({ title: 'Research', assignee: 'a' })] }
      : 'Final',
  a: (call) =>
    call.step === 0
      ? { text: 'Looking at the list.\nTwo tasks so far.\n', toolCalls: [tool('list_tasks')] }
      : 'Done.',
});

/** The view as it stands when a's tool call is committed, from `events`, and at the end. */
function frames(events: readonly TeamEvent[]) {
  const view = emptyRunState();
  const latest = new LatestLines();
  let during = '';
  for (const event of events) {
    applyEvent(view, event);
    latest.see(event);
    if (event.type === 'team:tool-called' && event.data.agent === 'a') {
      during = plain(
        renderLive(view, Date.parse(event.timestamp), 100, (agent) => latest.of(agent)).join('\n'),
      );
    }
  }
  const end = plain(renderLive(view, Date.now(), 100, (agent) => latest.of(agent)).join('\n'));
  return { during, end };
}

test('the live view shows each working agent’s latest line of text, live or from the log', async () => {
  const { team, events } = testTeam(script, { members: ['a'] });
  const result = await team.run({ input: 'go' });
  const live = frames(events);
  // Under a, at work on task-1: the last line it wrote so far.
  expect(live.during).toMatch(/ a +member +working task-1 Research.*\n +│ Two tasks so far\.\n/);
  expect(live.during).not.toContain('Looking at the list.');
  // Its turn over, the line is gone.
  expect(live.end).not.toContain('│');
  // A view built from the log alone (a resumed run's) shows the same: each step's text is logged.
  const logged = await team.store.readEvents(result.runId);
  expect(logged.some((event) => event.type === 'team:text-delta')).toBe(false);
  expect(frames(logged).during).toMatch(/\n +│ Two tasks so far\.\n/);
});

test('a line streamed in pieces shows as it grows, and the last whole line stays once a new one starts', () => {
  const latest = new LatestLines();
  const delta = (text: string, seq: number) =>
    ({
      type: 'team:text-delta',
      data: { agent: 'a', turn: 1, delta: text },
      timestamp: '',
      team: 't',
      runId: 'r',
      seq,
    }) as TeamEvent;
  latest.see(delta('Hel', 1));
  expect(latest.of('a')).toBe('Hel');
  latest.see(delta('lo wor', 1));
  expect(latest.of('a')).toBe('Hello wor');
  latest.see(delta('ld.\n', 1));
  expect(latest.of('a')).toBe('Hello world.');
  latest.see(delta('\nNe', 1));
  expect(latest.of('a')).toBe('Ne');
  expect(latest.of('b')).toBeUndefined();
});
