/**
 * The seeds a chaos suite runs on: `1..count` by default.
 *
 * Put the seed in the test's name, so a failure names it:
 *
 *   test.each(seeds(100))('the run ends with every task done (seed %i)', async (seed) => {
 *     const store = chaosStore(new MemoryStore(), seed);
 *     ...
 *   });
 *
 * Environment (an empty value counts as unset):
 * - `CHAOS_SEEDS=1000` runs on seeds 1..1000 instead of `count` (to hunt for rare orders);
 *   suites of slow trials (the seeded kills) read their own variable, `KILL_SEEDS`.
 * - `CHAOS_SEED=37` runs on seed 37 alone. To replay a failure, take the seed from the
 *   failing test's name and run, e.g.
 *     CHAOS_SEED=37 npx vitest run test/run/scenarios.test.ts
 *   The same seed draws the same delays (see chaos-store.ts); the timers themselves are
 *   real, so a replay is very likely, not certain, to take the same path.
 *   `CHAOS_SEED` wins over `CHAOS_SEEDS`.
 */
export function seeds(count: number, countVariable: 'CHAOS_SEEDS' | 'KILL_SEEDS' = 'CHAOS_SEEDS'): number[] {
  const one = parsed('CHAOS_SEED', (value) => Number.isSafeInteger(value));
  if (one !== undefined) return [one];
  const many = parsed(countVariable, (value) => Number.isSafeInteger(value) && value > 0) ?? count;
  return Array.from({ length: many }, (_, index) => index + 1);
}

/** An environment variable as a number, or `undefined` when unset; a bad value is an error, not ignored. */
function parsed(
  name: 'CHAOS_SEED' | 'CHAOS_SEEDS' | 'KILL_SEEDS',
  valid: (value: number) => boolean,
): number | undefined {
  const text = process.env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!valid(value)) {
    throw new Error(
      `${name} must be ${name === 'CHAOS_SEED' ? 'an integer' : 'a positive integer'}, not "${text}".`,
    );
  }
  return value;
}

/**
 * The bound of one seed's test when seeds run concurrently (`test.concurrent.each`): the test
 * takes its own time plus its siblings' turns on the CPU, which on a loaded machine is many
 * times the 30 s default. Still a bound: a seed that hangs fails.
 */
export const CONCURRENT_TIMEOUT_MS = 120_000;
