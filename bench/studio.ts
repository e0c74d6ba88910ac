// The Studio's page under a big run: 500 tasks and 5,000 messages (about 6,000 events).
// Measures, in headless Chromium on the built page: the first load of the run's page (every
// event streamed, folded and drawn), the time from one event's commit to the page showing
// it, and, during a burst of 1,000 events, that time for the burst's last event and the
// longest gap between two frames (how long the page stops answering).
// Run: npm run build && npm run bench:studio     (prints a Markdown table for docs/benchmarks.md)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { FileStore, type TeamEvent } from '../src/index.js';
import { startStudio } from '../src/studio/server/serve.js';
import { studioStoreOf } from '../src/studio/server/studio-store.js';
import { launchChromium } from '../test/studio/helpers/studio-child.js';

const TASKS = 500;
const MESSAGES = 5000;
const members = Array.from({ length: 9 }, (_, index) => `member-${index + 1}`);
const agents = ['lead', ...members];

const root = mkdtempSync(path.join(tmpdir(), 'agent-teams-bench-studio-'));
const store = new FileStore({ root });
await store.createTeam('big', { lead: 'lead', members, maxTasks: TASKS + 10 });
const { runId } = await store.startRun('big');
if (!runId) throw new Error('no run');

let sent = 0;
/** `count` messages between agents in turn, read at once so no inbox fills. */
async function chatter(count: number): Promise<void> {
  await store.transact('big', ({ mailbox }) => {
    for (let index = 0; index < count; index++, sent++) {
      const from = agents[sent % agents.length] as string;
      const to = agents[(sent + 1 + (sent % 3)) % agents.length] as string;
      mailbox.send(
        from,
        to,
        `Message ${sent}: notes on the part ${sent % 97} of the work, with a few words more.`,
      );
    }
    for (const agent of agents) mailbox.take(agent);
  });
}

await store.transact('big', ({ emit }) =>
  emit({ type: 'team:start', data: { lead: 'lead', members, input: 'A very big run' } }),
);
for (let start = 0; start < TASKS; start += 100) {
  await store.transact('big', ({ board }) => {
    for (let index = start; index < start + 100; index++) {
      const dependsOn = index >= 10 ? [`task-${index - 9}`] : [];
      board.createTask({ title: `Task ${index + 1} of the big run`, dependsOn }, 'lead');
    }
  });
}
// A third of the tasks done, a few in progress, the rest pending.
for (let index = 0; index < Math.floor(TASKS / 3); index++) {
  const member = members[index % members.length] as string;
  await store.transact('big', ({ board }) => {
    const task = board.claimTask(member, `task-${index + 1}`);
    if (task) board.updateTask(task.id, { status: 'completed', result: `Result ${index + 1}` }, member);
  });
}
for (let index = 0; index < MESSAGES; index += 250) await chatter(250);

const lastSeq = async () => (await store.readEvents(runId)).at(-1) as TeamEvent;
const studio = await startStudio({ teams: {}, studio: studioStoreOf(new FileStore({ root })) });
const browser = await launchChromium();
const page: Page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto(studio.url);

// The page's own code runs these (as strings: this file is type-checked without the DOM).
const shown = (seq: number) =>
  page.waitForFunction(`Number(document.body.dataset.shownSeq) >= ${seq}`, undefined, { timeout: 120_000 });
const shownAt = async () => Number(await page.evaluate('document.body.dataset.shownAt'));
const receivedAt = async () => Number(await page.evaluate('document.body.dataset.receivedAt'));

const initial = await lastSeq();
const loadStart = Date.now();
await page.evaluate(`location.hash = '#/runs/${encodeURIComponent(runId)}'`);
await shown(initial.seq);
const loadMs = (await shownAt()) - loadStart;
const rows = await page.locator('.row').count();

// One event at a time: commit → on screen.
const single: number[] = [];
const delivery: number[] = [];
for (let sample = 0; sample < 20; sample++) {
  await chatter(1);
  const event = await lastSeq();
  await shown(event.seq);
  single.push((await shownAt()) - Date.parse(event.timestamp));
  delivery.push((await receivedAt()) - Date.parse(event.timestamp));
}

// A burst of 1,000 events in 10 commits, with the page's longest frame gap measured.
// As a string: tsx would wrap a named function in a helper the page does not have.
await page.evaluate(`(() => {
  window.maxGap = 0;
  let last = performance.now();
  const tick = (now) => {
    window.maxGap = Math.max(window.maxGap, now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`);
for (let commit = 0; commit < 10; commit++) await chatter(100);
const burstLast = await lastSeq();
await shown(burstLast.seq);
const burstMs = (await shownAt()) - Date.parse(burstLast.timestamp);
const maxGap = Number(await page.evaluate('window.maxGap'));

await browser.close();
await studio.close();
await store.close();
rmSync(root, { recursive: true, force: true });

const at = (q: number, values = single) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
};
const ms = (value: number) => `${Math.round(value)} ms`;
console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}, Chromium headless`);
console.log(
  `run of ${TASKS} tasks, ${sent - 1000 - 20} messages, ${initial.seq} events; rows drawn: ${rows}\n`,
);
console.log('| measure | figure |');
console.log('| --- | ---: |');
console.log(
  `| first load of the run's page (${initial.seq} events streamed, folded, drawn) | ${ms(loadMs)} |`,
);
console.log(`| one event, commit → shown: median of 20 | ${ms(at(0.5))} |`);
console.log(`| one event, commit → shown: slowest of 20 | ${ms(at(1))} |`);
console.log(`| of which commit → received by the page (median) | ${ms(at(0.5, delivery))} |`);
console.log(`| burst of 1,000 events in 10 commits: last commit → shown | ${ms(burstMs)} |`);
console.log(`| longest frame gap during the burst | ${ms(maxGap)} |`);
