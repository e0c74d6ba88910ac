import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

// A store folder that is no ordinary folder is refused at once with the reason. Under
// /proc/self, Node's recursive mkdir looped forever, and `agent-teams run` hung.
const teamFile = fileURLToPath(new URL('../store/fixtures/one-member-team.ts', import.meta.url));

test.each([
  [
    '/proc/self',
    () => '/proc/self',
    'Cannot create the folder /proc/self/tasks (its file system takes no new folders there',
  ],
  ['/dev/null', () => '/dev/null', '/dev/null is not a folder (a file or a device)'],
  [
    'a file',
    () => {
      const file = path.join(tempFolder(), 'notes.txt');
      writeFileSync(file, 'mine\n');
      return file;
    },
    'notes.txt is not a folder (a file or a device)',
  ],
])('agent-teams run --store %s is refused with the reason, and ends', async (_name, store, reason) => {
  const run = await cli(['run', teamFile, '--input', 'Go', '--store', store()], { cwd: tempFolder() });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(reason);
});
