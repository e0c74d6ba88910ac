import type { Page } from 'playwright-core';

/**
 * Starts a run from the Studio's home page as a person does: opens `url`, picks the team,
 * types the input, presses Start and waits for the run's page. Answers the run's id.
 */
export async function startRunFromPage(
  page: Page,
  url: string,
  team: string,
  input: string,
): Promise<string> {
  await page.goto(url);
  await page.getByLabel('team').selectOption(team);
  await page.getByLabel('input').fill(input);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/#\/runs\//);
  return decodeURIComponent(page.url().split('#/runs/')[1] as string);
}
