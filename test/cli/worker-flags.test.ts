import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

const teamFile = fileURLToPath(new URL('./fixtures/two-teams.ts', import.meta.url));

test.each(['0', '65', '1e9', '2.5', 'many'])(
  'agent-teams worker --concurrency %s is refused before it connects: 1 to 64',
  async (concurrency) => {
    // An address nothing answers on: the refusal comes first, or the command would hang there.
    const run = await cli(
      ['worker', teamFile, '--postgres', 'postgres://127.0.0.1:1/none', '--concurrency', concurrency],
      {
        cwd: tempFolder(),
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`--concurrency must be a whole number from 1 to 64, not ${concurrency}`);
  },
);
