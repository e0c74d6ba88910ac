import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const commands = ['run', 'resume', 'demo', 'init', 'teams', 'tasks', 'inbox', 'send', 'respond', 'logs'];
// Every command but init reads or writes a store.
const withStore = (command: string) => command !== 'init';

test('--help lists every command with one line each', async () => {
  const { code, stdout } = await cli(['--help'], { cwd: tempFolder() });
  expect(code).toBe(0);
  for (const command of commands) expect(stdout).toMatch(new RegExp(`\\n  ${command} .*\\S`));
});

test.each(commands)('%s --help shows its options and an example', async (command) => {
  const { code, stdout } = await cli([command, '--help'], { cwd: tempFolder() });
  expect(code).toBe(0);
  expect(stdout).toContain(`Usage: agent-teams ${command}`);
  if (withStore(command)) expect(stdout).toContain('--store <dir>');
  expect(stdout).toMatch(/Example:\n {2}\$ npx agent-teams /);
});

test('an unknown command is an error with the help', async () => {
  const { code, stderr } = await cli(['fly'], { cwd: tempFolder() });
  expect(code).not.toBe(0);
  expect(stderr).toContain("unknown command 'fly'");
});
