import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startScript } from '../helpers/child.js';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { LIVE_TEXT } from './fixtures/run-views-teams.js';
import { NUDGE } from './fixtures/studio-teams.js';
import {
  chromiumAvailable,
  launchChromium,
  type StudioChild,
  startStudioChild,
} from './helpers/studio-child.js';
import { startRunFromPage } from './helpers/studio-page.js';

// The views of a run a person keeps open: its answer, its agents' tool calls, a timeline of
// their turns, their streamed text, Resume, and the list of runs. The real command in a
// child process, the built page in headless Chromium; every wait is for the page.

const TEAMS = fileURLToPath(new URL('./fixtures/run-views-teams.ts', import.meta.url));
const elsewhere = fileURLToPath(new URL('./fixtures/run-elsewhere.ts', import.meta.url));

let browser: Browser;
let studio: StudioChild;
let page: Page;
let store: string;
let newsroomRun: string;

const until = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 50_000, interval: 50 });
const answerPanel = () => page.getByRole('region', { name: 'Final answer' });
const status = () => page.getByTestId('status').textContent();

/** The person tells the writer what the gated checker waits for (see studio-teams.ts). */
async function nudgeWriter() {
  await page.getByLabel('Send to').selectOption('writer');
  await page.getByLabel('Your message').fill(NUDGE);
  await page.getByRole('button', { name: 'Send' }).click();
}

describe.skipIf(!chromiumAvailable())('a run’s views in headless Chromium', () => {
  beforeAll(async () => {
    store = path.join(tempFolder(), 'store');
    studio = await startStudioChild([TEAMS, '--store', store]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1200 } });
    page.setDefaultTimeout(50_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await studio?.stop();
  });

  test('the answer panel shows the lead’s latest text while the run goes, then the final answer', async () => {
    newsroomRun = await startRunFromPage(
      page,
      studio.url,
      'newsroom-demo',
      'Write a short article about tides',
    );
    // The checker waits for the person's word to the writer: the run is surely going.
    await page.locator('[data-agent="checker"]', { hasText: 'working' }).waitFor();
    expect(await answerPanel().getAttribute('data-answer')).toBe('lead-latest');
    expect(await answerPanel().textContent()).toBe(
      'editor’s latestPlanned four tasks: research and an example in parallel, then the draft, then a check.',
    );
    await nudgeWriter();
    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => answerPanel().getAttribute('data-answer')).toBe('final');
    const answer = await answerPanel().locator('.answer-text').textContent();
    // The editor's synthesis: the writer's article and the checker's verdict.
    expect(answer).toMatch(/^Why the sea breathes\. Twice a day/);
    expect(answer).toContain('(Checked against NOAA: the two bulges');
  }, 60_000);

  test('tool calls and their answers read as folded JSON in the transcript, nothing escaped', async () => {
    await page.locator('[data-agent="editor"]').click();
    const transcript = page.locator('[data-transcript="editor"]');
    const call = transcript.locator('.step.tool-called', { hasText: 'Collect the facts about tides' });
    expect(await call.locator('.step-head').textContent()).toBe('→ create_task');
    expect(await call.locator('.json-key').allTextContents()).toEqual(['title', 'description', 'assignee']);
    expect(await call.locator('.json-string').allTextContents()).toEqual([
      '“Collect the facts about tides”',
      '“Why tides happen, how often, spring and neap tides; name a source.”',
      '“researcher”',
    ]);
    expect(await transcript.textContent()).not.toContain('\\"');
    // The answer: its fields shown, the task in it folded until it is opened.
    const result = transcript.locator('.step.tool-result').first();
    expect(await result.locator('.step-head').textContent()).toBe('← create_task');
    const task = result.locator('li').filter({ has: page.locator('.json-key', { hasText: /^task$/ }) });
    const folded = task.locator('details');
    expect(await folded.getAttribute('open')).toBeNull();
    expect(await task.locator('summary').textContent()).toBe('{5 keys}');
    expect(await task.getByText('“task-1”').isVisible()).toBe(false);
    await task.locator('summary').click();
    expect(await folded.getAttribute('open')).toBe('');
    expect(await task.getByText('“task-1”').isVisible()).toBe(true);
    expect(await result.locator('li').first().textContent()).toBe('success: true');
  }, 60_000);

  test('the timeline draws every agent’s turns; a bar’s click opens that turn in its transcript', async () => {
    const timeline = page.getByRole('region', { name: 'Turns over time' });
    const bars = timeline.locator('[data-bar]');
    // A bar for every turn the run took, as the usage table counts them.
    const turns = await page.locator('[data-usage="total"] td').nth(1).textContent();
    expect(await bars.count()).toBe(Number(turns));
    const draft = timeline.locator('[data-bar^="writer:"]', { hasText: 'task-3' });
    expect(await draft.textContent()).toMatch(/^writer #\d+task · task-3 · [\d,]+ tok$/);
    const turn = (await draft.getAttribute('data-bar'))?.split(':')[1];
    await draft.click();
    const opened = page.locator(`[data-transcript="writer"] .turn.focused`);
    expect(await opened.getAttribute('data-turn')).toBe(turn);
    expect(await opened.locator('header').textContent()).toMatch(/^turn \d+ · task · task-3 · /);
    // The editor's synthesis is its own bar, after every other.
    expect(await bars.last().textContent()).toMatch(/^editor #\d+synthesis/);
  }, 60_000);

  test('a working agent’s text streams into its card and its transcript; an aborted run resumes from the page', async () => {
    await startRunFromPage(page, studio.url, 'live', 'Cover the tide');
    const reporter = page.locator('[data-agent="reporter"]');
    await until(() => reporter.locator('.agent-line').textContent()).toBe(LIVE_TEXT);
    await reporter.click();
    // Its turn so far, as streamed: the line, again and again.
    const streamed = page.locator('[data-transcript="reporter"] .turn .streaming');
    const lines = (await streamed.textContent())?.split('\n').filter(Boolean);
    expect(lines?.length).toBeGreaterThan(0);
    expect(new Set(lines)).toEqual(new Set([LIVE_TEXT]));
    // The lead wrote its reply already: the answer panel shows it until the run ends.
    expect(await answerPanel().textContent()).toContain('Sent the reporter out.');
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.locator('main[data-status="aborted"]').waitFor();
    expect(await reporter.locator('.agent-line').count()).toBe(0);
    expect(await answerPanel().textContent()).toBe('Final answerNo answer: the run ended aborted.');
    // Resume: the same run goes on in the Studio, and the reporter streams again.
    await page.getByRole('button', { name: 'Resume' }).click();
    await until(status).toBe('running');
    await until(() => reporter.locator('.agent-line').textContent()).toBe(LIVE_TEXT);
    expect(await page.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.locator('main[data-status="aborted"]').waitFor();
  }, 60_000);

  test('a run whose process died shows interrupted; Resume continues it in the Studio to its answer', async () => {
    const other = startScript(elsewhere, [store]);
    const runId = (await other.line(/^newsroom-demo-/)).trim();
    await page.goto(studio.url);
    await page.locator(`tr[data-run="${runId}"]`).getByRole('link').click();
    await page.locator('[data-agent="checker"]', { hasText: 'working' }).waitFor();
    other.child.kill('SIGKILL');
    await other.end();
    await until(status).toBe('interrupted');
    expect(await page.getByRole('button', { name: 'Abort' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await until(status).toBe('running');
    // The checker's cut turn runs again, here, and waits for the person's word as before.
    await page.locator('[data-agent="checker"]', { hasText: 'working' }).waitFor();
    await nudgeWriter();
    await page.locator('main[data-status="completed"]').waitFor();
    expect(await answerPanel().locator('.answer-text').textContent()).toMatch(/^Why the sea breathes/);
    const { stdout } = await cli(['runs', 'newsroom-demo', '--store', store, '--json'], {
      cwd: tempFolder(),
    });
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toContainEqual(expect.objectContaining({ runId, status: 'completed' }));
  }, 60_000);

  test('the run list shows each run’s status, start, duration, tokens and cost, and filters them', async () => {
    await page.goto(studio.url);
    const rows = page.locator('tr[data-run]');
    await until(() => rows.count()).toBe(3);
    const { stdout } = await cli(['runs', 'newsroom-demo', '--store', store, '--json'], {
      cwd: tempFolder(),
    });
    const listed = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { runId: string; totalTokens: number; startedAt: string });
    const first = listed.find((run) => run.runId === newsroomRun);
    const row = page.locator(`tr[data-run="${newsroomRun}"]`);
    expect(await row.locator('td').nth(1).textContent()).toBe('newsroom-demo');
    expect(await row.locator('td').nth(2).textContent()).toBe('completed');
    expect(await row.locator('td').nth(3).textContent()).toBe(
      first?.startedAt.replace('T', ' ').slice(0, 19),
    );
    expect(await row.locator('[data-cell="duration"]').textContent()).toMatch(/^\d+:\d\d$/);
    expect(await row.locator('[data-cell="tokens"]').textContent()).toBe(
      first?.totalTokens.toLocaleString('en-US'),
    );
    expect(await row.locator('[data-cell="cost"]').textContent()).toMatch(/^(unpriced|\$\d+\.\d{4})$/);

    await page.getByLabel('Filter runs').fill('live');
    await until(() => rows.count()).toBe(1);
    expect(await rows.locator('td').nth(1).textContent()).toBe('live');
    await page.getByLabel('Filter runs').fill('');
    await page.getByLabel('Run status').selectOption('completed');
    await until(() => rows.count()).toBe(2);
    await page.getByLabel('Run status').selectOption('aborted');
    await until(() => rows.locator('td:nth-child(2)').allTextContents()).toEqual(['live']);
    await page.getByLabel('Filter runs').fill('newsroom');
    await until(() => rows.count()).toBe(0);
    expect(await page.getByText('No run matches.').isVisible()).toBe(true);
  }, 60_000);
});
