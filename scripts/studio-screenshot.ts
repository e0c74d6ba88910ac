// Saves docs/studio.png: the Studio's page of a finished run of the demo's newsroom (the
// test fixture's, which waits for the person's message to the writer), with the writer's
// transcript open. Run: npm run build && npm run studio:screenshot
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NUDGE } from '../test/studio/fixtures/studio-teams.js';
import { launchChromium, STUDIO_TEAMS, startStudioChild } from '../test/studio/helpers/studio-child.js';

const output = fileURLToPath(new URL('../docs/studio.png', import.meta.url));
const folder = mkdtempSync(path.join(tmpdir(), 'agent-teams-screenshot-'));
const studio = await startStudioChild([STUDIO_TEAMS, '--store', path.join(folder, 'store')]);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1060 } });
  await page.goto(studio.url);
  await page.getByLabel('team').selectOption('newsroom-demo');
  await page.getByLabel('input').fill('Write a short article about tides');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.locator('[data-column="in_progress"] [data-task="task-4"]').waitFor();
  await page.getByLabel('Send to').selectOption('writer');
  await page.getByLabel('Your message').fill(NUDGE);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('main[data-status="completed"]').waitFor();
  await page.locator('[data-agent="writer"]').click();
  await page.locator('[data-transcript="writer"]').waitFor();
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: output });
  console.log(`saved ${path.relative(process.cwd(), output)}`);
} finally {
  await browser.close();
  await studio.stop();
  rmSync(folder, { recursive: true, force: true });
}
