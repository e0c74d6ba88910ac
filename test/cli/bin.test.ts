import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

// `npx agent-teams` runs the file itself: the build (npm run build, which the test setup
// runs too) must leave it executable.
test('the build leaves the command executable, and npx runs it from the project', () => {
  expect(statSync(bin).mode & 0o111).not.toBe(0);
  // ignore-scripts: npx must not run the folder's `prepare` (a new build, deleting dist/ while
  // the other test files run the command from it); the test setup built it.
  const env = { ...process.env, npm_config_ignore_scripts: 'true' };
  expect(execFileSync('npx', ['agent-teams', '--version'], { cwd: root, env }).toString().trim()).toMatch(
    /^\d+\.\d+\.\d+$/,
  );
}, 120_000); // npx resolves the command through npm: seconds on a quiet machine, more under load
