import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

test('a misspelt flag is reported as unknown, not as the required option it was meant to be', async () => {
  const run = await cli(['run', 'x.ts', '--inptu', 'y'], { cwd: tempFolder() });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("error: unknown option '--inptu'");
  expect(run.stderr).toContain('(Did you mean --input?)');
  expect(run.stderr).not.toContain('required option');
});

test('a required option that is missing is still named', async () => {
  const run = await cli(['run', 'x.ts'], { cwd: tempFolder() });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("error: required option '--input <text>' not specified");
});

// Each command with a wrong flag and nothing else: the flag is reported before a missing
// argument or option.
test.each([['run'], ['resume'], ['demo'], ['teams'], ['tasks'], ['inbox'], ['logs']])(
  '%s reports an unknown option first',
  async (command) => {
    const cwd = tempFolder();
    const run = await cli([command, '--inptu', 'y'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: unknown option '--inptu'/);
  },
);

test('the command itself reports an unknown option', async () => {
  const run = await cli(['--inptu'], { cwd: tempFolder() });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^error: unknown option '--inptu'/);
});
