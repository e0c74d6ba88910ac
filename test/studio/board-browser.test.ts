import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BOATS, PERSON_TASK } from '../cli/fixtures/board-team.js';
import { VAGUE } from '../cli/fixtures/judged-team.js';
import { expectBoardTasks, taskTurns } from '../helpers/board-run.js';
import { tempFolder } from '../helpers/temp-folder.js';
import {
  chromiumAvailable,
  launchChromium,
  type StudioChild,
  startStudioChild,
} from './helpers/studio-child.js';

// The person at the board in the Studio's page: the real command in a child process, the
// built page in headless Chromium, the board fixture's run (its first task is held until a
// task only the person adds is done). Every wait is for something on the page.

const BOARD_TEAM = fileURLToPath(new URL('../cli/fixtures/board-team.ts', import.meta.url));
const JUDGED_TEAM = fileURLToPath(new URL('../cli/fixtures/judged-team.ts', import.meta.url));

let browser: Browser;
let studio: StudioChild;
let page: Page;
let store: string;

const until = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 50_000, interval: 50 });
const column = (status: string) => page.locator(`[data-column="${status}"] [data-task]`);
const card = (taskId: string) => page.locator(`[data-task="${taskId}"]`);

describe.skipIf(!chromiumAvailable())('the board in the Studio’s page', () => {
  beforeAll(async () => {
    store = path.join(tempFolder(), 'store');
    studio = await startStudioChild([BOARD_TEAM, '--store', store]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1200 } });
    page.setDefaultTimeout(50_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await studio?.stop();
  });

  test('the person deletes a task, gives one to another member and adds one from the page; the run does what the board says', async () => {
    await page.goto(studio.url);
    await page.getByLabel('team').selectOption('board');
    await page.getByLabel('input').fill('Hold the line');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/#\/runs\//);
    await until(() => column('in_progress').allTextContents()).toEqual([expect.stringContaining('task-1')]);
    // Only pending tasks have an Edit button: the held one changes no more.
    expect(await card('task-1').getByRole('button', { name: 'Edit task-1' }).count()).toBe(0);

    // Delete task-2, with the reason: it moves to the Deleted column, reason shown.
    await page.getByRole('button', { name: 'Edit task-2' }).click();
    const dialog2 = page.getByRole('dialog', { name: 'Edit task-2' });
    expect(await dialog2.getByRole('button', { name: 'Delete task' }).isDisabled()).toBe(true);
    await dialog2.getByLabel('Reason for deleting').fill('Polish is not needed');
    await dialog2.getByRole('button', { name: 'Delete task' }).click();
    await until(() => column('deleted').allTextContents()).toEqual([
      expect.stringContaining('deleted: Polish is not needed'),
    ]);
    expect(await dialog2.count()).toBe(0);

    // A refused edit shows the rule's reason and changes nothing.
    await page.getByRole('button', { name: 'Edit task-3' }).click();
    const dialog3 = page.getByRole('dialog', { name: 'Edit task-3' });
    expect(await dialog3.getByLabel('Waits for').inputValue()).toBe('task-1');
    await dialog3.getByLabel('Waits for').fill('task-1, task-3');
    await dialog3.getByRole('button', { name: 'Save' }).click();
    await until(() => dialog3.getByRole('alert').textContent()).toBe('task-3 cannot wait for itself.');
    // Given to c instead, with its dependencies as they were.
    await dialog3.getByLabel('Waits for').fill('task-1');
    await dialog3.getByLabel('Assignee').selectOption('c');
    await dialog3.getByRole('button', { name: 'Save' }).click();
    await until(() => card('task-3').locator('.task-meta').textContent()).toBe('for c · after task-1');

    // The person's own task, for b: doing it lets the held task go on.
    const form = page.getByRole('form', { name: 'Add a task' });
    await form.getByLabel('New task title').fill(PERSON_TASK);
    await form.getByLabel('New task assignee').selectOption('b');
    await form.getByRole('button', { name: 'Add task' }).click();
    await until(() => form.getByRole('status').textContent()).toBe('added task-4');

    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => column('completed').count()).toBe(3);
    expect(await card('task-4').textContent()).toContain(BOATS);
    expect(await card('task-3').textContent()).toContain('task-3 done by c');
    expect(await column('deleted').count()).toBe(1);
    // The run is over: the board is for reading now.
    expect(await page.getByRole('form', { name: 'Add a task' }).count()).toBe(0);

    const files = new FileStore({ root: store });
    expectBoardTasks(await files.transact('board', ({ board }) => board.listTasks()));
    const runId = (await files.getTeam('board'))?.runId as string;
    expect(taskTurns(await files.readEvents(runId)).sort()).toEqual(['a task-1', 'b task-4', 'c task-3']);
    await files.close();
  }, 60_000);

  test('the person takes tasks back from the page: a pending one given to nobody, and the one a member holds; the run does them all', async () => {
    await page.goto(studio.url);
    await page.getByLabel('team').selectOption('board');
    await page.getByLabel('input').fill('Hold the line again');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(/#\/runs\//);
    await until(() => column('in_progress').allTextContents()).toEqual([expect.stringContaining('task-1')]);
    const runId = decodeURIComponent(page.url().replace(/^.*#\/runs\//, ''));

    // task-3 was b's: "anyone" gives it to nobody.
    await until(() => card('task-3').locator('.task-meta').textContent()).toBe('for b · after task-1');
    await page.getByRole('button', { name: 'Edit task-3' }).click();
    const dialog3 = page.getByRole('dialog', { name: 'Edit task-3' });
    await dialog3.getByLabel('Assignee').selectOption('');
    await dialog3.getByRole('button', { name: 'Save' }).click();
    await until(() => card('task-3').locator('.task-meta').textContent()).toBe('anyone · after task-1');

    // a holds task-1: Take back releases it, and a is told.
    await card('task-1').getByRole('button', { name: 'Take back task-1' }).click();
    const files = new FileStore({ root: store });
    const released = async () =>
      (await files.readEvents(runId)).flatMap((event) =>
        event.type === 'team:task-updated' && event.data.by === 'user'
          ? [`${event.data.task.id} ${event.data.from}->${event.data.to}`]
          : [],
      );
    await until(released).toEqual(['task-3 pending->pending', 'task-1 in_progress->pending']);
    expect(
      await files.transact('board', ({ mailbox }) => mailbox.messages('a').map((m) => m.content)),
    ).toContain(
      'user took task-1 ("Hold the line") back from you: it is on the list for anyone again, no longer yours to do.',
    );

    const form = page.getByRole('form', { name: 'Add a task' });
    await form.getByLabel('New task title').fill(PERSON_TASK);
    await form.getByRole('button', { name: 'Add task' }).click();
    await page.locator('main[data-status="completed"]').waitFor();
    await until(() => column('completed').count()).toBe(4);
    await files.close();
  }, 60_000);
});

describe.skipIf(!chromiumAvailable())(
  'a task the person adds in the Studio’s page, under the team’s onTaskCreated hook',
  () => {
    let judged: StudioChild;
    let judgedBrowser: Browser;

    afterAll(async () => {
      await judgedBrowser?.close();
      await judged?.stop();
    });

    test('a task the hook rejects is not added and the page says why; one it allows is added and done', async () => {
      const root = path.join(tempFolder(), 'store');
      // The run ends only once the page has said the task was added: the form goes with the run.
      const hold = path.join(tempFolder(), 'let-a-finish');
      judged = await startStudioChild([JUDGED_TEAM, '--store', root], undefined, { JUDGED_TEAM_HOLD: hold });
      judgedBrowser = await launchChromium();
      const tab = await judgedBrowser.newPage({ viewport: { width: 1400, height: 1200 } });
      tab.setDefaultTimeout(50_000);
      await tab.goto(judged.url);
      await tab.getByLabel('team').selectOption('judged');
      await tab.getByLabel('input').fill('Write an intro');
      await tab.getByRole('button', { name: 'Start' }).click();
      await tab.waitForURL(/#\/runs\//);
      await until(() => tab.locator('[data-column="in_progress"] [data-task]').allTextContents()).toEqual([
        expect.stringContaining('task-1'),
      ]);

      const form = tab.getByRole('form', { name: 'Add a task' });
      await form.getByLabel('New task title').fill('A vague task');
      await form.getByRole('button', { name: 'Add task' }).click();
      await until(() => form.getByRole('status').textContent()).toBe(
        `The task "A vague task" was not created: ${VAGUE}`,
      );
      await form.getByLabel('New task title').fill('Write the intro');
      await form.getByRole('button', { name: 'Add task' }).click();
      await until(() => form.getByRole('status').textContent()).toBe('added task-2');
      writeFileSync(hold, '');
      await tab.locator('main[data-status="completed"]').waitFor();

      const files = new FileStore({ root });
      const tasks = await files.transact('judged', ({ board }) => board.listTasks());
      expect(tasks.map((task) => `${task.id} ${task.title} ${task.status}`)).toEqual([
        'task-1 Hold the line completed',
        'task-2 Write the intro completed',
      ]);
      await files.close();
    }, 60_000);
  },
);
