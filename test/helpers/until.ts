/**
 * Waits until `check` holds, looking again every 10 ms: a test waits for what the run did
 * (its events, its store), never for a time; past 20 s it gives up, naming nothing happened.
 */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()); waited += 10) {
    if (waited > 20_000) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
