import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { ANSWER, ASK, NUDGE, PLAN } from './fixtures/studio-teams.js';
import {
  chromiumAvailable,
  launchChromium,
  STUDIO_TEAMS,
  type StudioChild,
  startStudioChild,
} from './helpers/studio-child.js';
import { startRunFromPage } from './helpers/studio-page.js';

// The Studio as a person uses it: the real command in a child process, the built page in
// headless Chromium. Every wait is for something on the page, never for a time.

let browser: Browser;
let studio: StudioChild;
let page: Page;
let store: string;
let runId: string;
/** Every URL the page asked for. */
const requested: string[] = [];

/** Waits for the page to get there: as long as a loaded machine needs (the test's bound is the limit). */
const until = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 50_000, interval: 50 });
const column = (status: string) => page.locator(`[data-column="${status}"] [data-task]`);

// Without Chromium these skip with a warning (and fail under CI): see chromiumAvailable.
describe.skipIf(!chromiumAvailable())('the Studio in headless Chromium', () => {
  beforeAll(async () => {
    store = path.join(tempFolder(), 'store');
    studio = await startStudioChild([STUDIO_TEAMS, '--store', store]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // Playwright's own waits (waitFor, click) give up after 30 s; on a loaded machine, with the
    // other test files running beside this one, a step can take longer. The test's bound
    // (60 s) is the limit, as for `until`.
    page.setDefaultTimeout(50_000);
    page.on('request', (request) => requested.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await studio?.stop();
  });

  test('a request without the token is refused with a bare 401', async () => {
    // A browser that never had the URL: no token, no cookie.
    const stranger = await browser.newContext();
    for (const route of ['/', '/api/runs', '/api/teams']) {
      const response = await stranger.request.get(new URL(route, studio.url).href);
      expect(response.status()).toBe(401);
      expect(await response.text()).toBe('');
    }
    const started = await stranger.request.post(new URL('/api/runs', studio.url).href, {
      data: { team: 'newsroom-demo', input: 'x' },
    });
    expect(started.status()).toBe(401);
    await stranger.close();
  });

  test('the demo team runs from the page: the columns fill and the graph gains edges', async () => {
    runId = await startRunFromPage(page, studio.url, 'newsroom-demo', 'Write a short article about tides');
    // The checker's task waits for the writer to hear from the person (see the fixture).
    await until(() => column('in_progress').allTextContents()).toEqual([expect.stringContaining('task-4')]);
    await until(() => column('completed').count()).toBe(3);
    expect(await column('pending').count()).toBe(0);
    const completed = page.locator('[data-column="completed"] [data-task="task-3"]');
    expect(await completed.textContent()).toContain('writer · after task-1, task-2');
    expect(await completed.textContent()).toContain('Why the sea breathes');
    for (const pair of ['editor~researcher', 'editor~writer', 'checker~editor', 'researcher~writer']) {
      await until(() => page.locator(`[data-id="${pair}"]`).count()).toBe(1);
    }
    expect(await page.locator('[data-agent="checker"]').textContent()).toContain(
      'task-4: Check every fact in the draft',
    );
    expect(await page.locator('[data-agent="checker"]').textContent()).toContain('working');
    expect(await page.locator('[data-agent="writer"]').textContent()).toMatch(/turns [1-6] \/ 6/);
  }, 60_000);

  test('a message to a member from the page wakes it: its turn is in its transcript', async () => {
    // The checker waits for the nudge on its task: by then the writer's article is done and it
    // is between turns (a message to a member mid-turn is given to that turn instead).
    await page.locator('[data-agent="checker"]', { hasText: 'task-4' }).waitFor();
    await page.getByLabel('Send to').selectOption('writer');
    await page.getByLabel('Your message').fill(NUDGE);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => page.locator('[data-id="user~writer"]').count()).toBe(1);
    expect(await column('completed').count()).toBe(4);
    await page.locator('[data-agent="writer"]').click();
    const turn = page.locator('[data-transcript="writer"] [data-reason="message"]', { hasText: NUDGE });
    expect(await turn.textContent()).toContain(`from you: ${NUDGE}`);
    expect(await turn.textContent()).toContain('Noted: metric units throughout.');
    expect(await page.locator('[data-usage="total"]').textContent()).toMatch(/^total\d+[\d,]+[\d,]+/);
    expect(await page.getByRole('button', { name: 'Abort' }).isDisabled()).toBe(true);
  }, 60_000);

  test('the finished run replays from its log with the timeline', async () => {
    const timeline = page.getByLabel('timeline');
    await timeline.focus();
    await page.keyboard.press('Home');
    expect(await page.getByTestId('position').textContent()).toMatch(/^event 0 \/ \d+/);
    expect(await page.locator('[data-task]').count()).toBe(0);
    // Step on until the editor's plan is all on the list: nothing is done yet.
    for (let step = 1; (await page.locator('[data-task]').count()) < 4; step++) {
      await page.keyboard.press('ArrowRight');
      await until(() => page.getByTestId('position').textContent()).toMatch(new RegExp(`^event ${step} /`));
    }
    expect(await column('pending').count()).toBeGreaterThan(0);
    expect(await column('completed').count()).toBe(0);
    expect(await page.getByTestId('status').textContent()).toBe('replay');
    expect(await page.locator('[data-agent="editor"]').textContent()).toContain('working');
    // Played on by itself, the replay reaches the end and follows the run again.
    await page.getByRole('button', { name: 'Play' }).click();
    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => page.getByTestId('status').textContent()).toBe('completed');
    expect(await column('completed').count()).toBe(4);
    expect(await page.getByRole('button', { name: 'Live' }).isDisabled()).toBe(true);
    await timeline.focus();
    await page.keyboard.press('Home');
    await page.getByRole('button', { name: 'Live' }).click();
    expect(await page.getByTestId('status').textContent()).toBe('completed');
  });

  test('after the Studio restarts, the run’s page shows the same picture', async () => {
    const picture = () =>
      Promise.all(
        ['.columns', '.usage', '.messages', '.graph .react-flow__nodes'].map((part) =>
          page.locator(part).textContent(),
        ),
      );
    const before = await picture();
    const oldUrl = studio.url;
    expect(await studio.stop()).toBe(0);
    studio = await startStudioChild([STUDIO_TEAMS, '--store', store]);
    expect(
      (await fetch(new URL('/api/runs', oldUrl.replace(/:\d+\//, `:${new URL(studio.url).port}/`)))).status,
    ).toBe(401);
    // The new Studio lists the run, from the store; its page is one click away.
    await page.goto(studio.url);
    await page.locator(`tr[data-run="${runId}"]`, { hasText: 'completed' }).getByRole('link').click();
    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => page.locator('[data-column="completed"] [data-task]').count()).toBe(4);
    expect(await picture()).toEqual(before);
  }, 60_000);

  test('a member’s plan is approved from the page: the member goes on and the run completes', async () => {
    await startRunFromPage(page, studio.url, 'review', 'Build a shed');
    // The lead spent its one turn: the plan goes on to the person, and the run waits for them.
    const request = page.locator('[data-request]', { hasText: PLAN });
    await until(() => request.locator('.request-head').textContent()).toBe('plan builder → user');
    expect(await request.textContent()).toContain(`Plan for task-1:\n${PLAN}`);
    expect(await column('completed').count()).toBe(0);
    await request.getByRole('textbox').fill('Go ahead.');
    await request.getByRole('button', { name: 'Approve' }).click();
    await page.locator('main[data-status="completed"]').waitFor();
    expect(await page.locator('[data-request]').count()).toBe(0);
    expect(await page.getByLabel('Open requests').textContent()).toContain('None.');
    expect(await column('completed').allTextContents()).toEqual([expect.stringContaining('Built it.')]);
  }, 60_000);

  test('the person asks the lead from the page; its answer to user shows in the conversation and the person’s inbox', async () => {
    await startRunFromPage(page, studio.url, 'chat', 'Talk to me');
    await page.locator('[data-agent="guest"]', { hasText: 'working' }).waitFor();
    // The guest is interrupted from the page: its turn stops, and its next (the same task) starts.
    await page.getByLabel('Interrupt message').fill('Hold on: the host talks first.');
    await page.getByRole('button', { name: 'Interrupt guest' }).click();
    await until(() => page.locator('[data-agent="guest"] .agent-turns').textContent()).toBe('turns 2 / 8');
    expect(await page.locator('[data-agent="guest"] .agent-task').textContent()).toMatch(/^task-1/);
    await page.getByLabel('Send to').selectOption('host');
    await page.getByLabel('Your message').fill(ASK);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Conversation').selectOption('host');
    const conversation = page.getByRole('region', { name: 'Messages' });
    await conversation.getByText(ANSWER).waitFor();
    expect(await conversation.textContent()).toContain(`you → host`);
    expect(await conversation.textContent()).toContain('host → you');
    await page.locator('main[data-status="completed"]').waitFor();
    // The guest read the interrupt first in its second turn.
    const guest = await cli(['logs', 'chat', '--agent', 'guest', '--store', store], { cwd: tempFolder() });
    expect(guest.stdout).toMatch(/the user interrupted your last turn/);
    // The page showed it: in the person's inbox, read. The page marks it read after it shows
    // it, which the run's end does not wait for: the inbox is read until it says so.
    const inbox = async () =>
      JSON.parse(
        (await cli(['inbox', 'chat', 'user', '--store', store, '--json'], { cwd: tempFolder() })).stdout,
      );
    await until(inbox).toMatchObject({ from: 'host', content: ANSWER, readAt: expect.any(String) });
  }, 60_000);

  test('a permission asked of the person is rejected from the page, with feedback the member reads', async () => {
    await startRunFromPage(page, studio.url, 'workshop', 'Write the notes');
    const request = page.locator('[data-request]', { hasText: 'carpenter asks to write_file shed.md' });
    await until(() => request.locator('.request-head').textContent()).toBe('permission carpenter → user');
    // The member waits on the request, its task kept: the graph says so.
    const id = (await request.getAttribute('data-request')) ?? '';
    const card = page.locator('[data-agent="carpenter"]');
    await until(() => card.locator('.agent-status').textContent()).toBe(`waiting on request ${id}`);
    expect(await card.locator('.agent-task').textContent()).toMatch(/^task-1/);
    await request.getByRole('textbox').fill('Not there.');
    await request.getByRole('button', { name: 'Reject' }).click();
    await page.locator('main[data-status="completed"]').waitFor();
    expect(await page.locator('[data-request]').count()).toBe(0);
    expect(await column('completed').allTextContents()).toEqual([
      expect.stringContaining('Permission to write_file shed.md was denied (by user): Not there.'),
    ]);
  }, 60_000);

  test('members are shut down, added and removed from the page (the graph follows), and Abort stops a going run', async () => {
    await startRunFromPage(page, studio.url, 'slow', 'Plan something');
    // The planner's first model call takes ten minutes: the run is surely going.
    await page.locator('[data-agent="planner"]', { hasText: 'working' }).waitFor();
    // A member is shut down from the page, at once: it leaves the team and the run goes on.
    await page.getByLabel('force').check();
    await page.getByRole('button', { name: 'Shut down doer' }).click();
    // Shut down, it leaves the graph.
    await page.locator('[data-agent="doer"]').waitFor({ state: 'detached' });
    expect(await page.locator('[data-usage="doer"]').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Shut down doer' }).count()).toBe(0);
    expect(await page.getByTestId('status').textContent()).toBe('running');
    // A member joins from the page (on a local model no one calls: it has no work), then is removed.
    await page.getByLabel("New member's name").fill('helper');
    await page.getByLabel("New member's model").fill('ollama/none');
    await page.getByLabel("New member's instructions").fill('Help.');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('[data-agent="helper"]', { hasText: 'idle' }).waitFor();
    await page.getByRole('button', { name: 'Remove helper' }).click();
    await page.locator('[data-agent="helper"]').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Remove helper' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.locator('main[data-status="aborted"]').waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('aborted');
    expect(await page.locator('[data-agent="planner"]').textContent()).not.toContain('working');
  }, 60_000);

  test('the page asks nothing of anyone but the Studio: it works offline', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith('http://127.0.0.1:'))).toEqual([]);
  });
});
