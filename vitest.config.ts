import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import SlowFirst from './test/slow-first.js';

// The suite in projects, by what a test needs: `npx vitest run --project unit` runs the fast
// ones alone, `--project postgres` and `--project workers` the ones on the test server. Every
// test file is in exactly one project: `runtime` takes whatever the others do not name, so a
// new file always runs.

/** Only PostgreSQL: the store on the test server, and the suites that exist for it. */
const POSTGRES = [
  'test/store/postgres/**/*.test.ts',
  'test/**/*postgres*.test.ts',
  'test/team/any-text.test.ts',
];
/** Runs on pg-boss workers: each test is a run's process and its workers, on PostgreSQL. */
const WORKERS = ['test/turn/workers/**/*.test.ts'];
/** The Studio's page in headless Chromium. */
const BROWSER = [
  'test/studio/browser.test.ts',
  'test/studio/hostile-page.test.ts',
  'test/studio/board-browser.test.ts',
  'test/studio/run-views.test.ts',
  'test/studio/store-outage-browser.test.ts',
];
/** The package as npm packs and installs it. */
const PACKAGE = ['test/package/**/*.test.ts'];
/** Child processes: the built command, runs killed and resumed, stores shared between processes. */
const PROCESSES = [
  'test/cli/**/*.test.ts',
  'test/scenarios/kill-resume.test.ts',
  'test/scenarios/lifecycle-kills-file.test.ts',
  'test/scenarios/usage-kills-file.test.ts',
  'test/scenarios/governance-crash-resume.test.ts',
  'test/team/crash-resume.test.ts',
  'test/store/processes.test.ts',
  'test/store/live-runs.test.ts',
  'test/store/file/file-lost.test.ts',
  'test/store/file/file-feed.test.ts',
  'test/store/file/file-reads.test.ts',
  'test/store/file/file-recovery.test.ts',
  'test/store/file/crafted-folder.test.ts',
  'test/examples/mcp-tools.test.ts',
  'test/turn/descriptor.test.ts',
  'test/tools/workspace-jail.test.ts',
  'test/studio/command.test.ts',
  'test/studio/resume-api.test.ts',
];
/** The rules and building blocks alone: no run, no process, no server. */
const UNIT = [
  'test/board/**/*.test.ts',
  'test/mailbox/**/*.test.ts',
  'test/fold/**/*.test.ts',
  'test/errors/**/*.test.ts',
  'test/agent/**/*.test.ts',
  'test/requests/glob.test.ts',
  'test/testing/scripted-model.test.ts',
  'test/store/task-ids.test.ts',
  'test/docs/doc-links.test.ts',
];

const project = (
  name: string,
  include: string[],
  test: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, exclude: [...(name === 'runtime' ? NAMED : []), '**/node_modules/**'], ...test },
});
const NAMED = [...POSTGRES, ...WORKERS, ...BROWSER, ...PACKAGE, ...PROCESSES, ...UNIT];

export default defineConfig({
  resolve: {
    alias: {
      'agent-teams/testing': fileURLToPath(new URL('./src/testing.ts', import.meta.url)),
      'agent-teams/postgres': fileURLToPath(new URL('./src/postgres.ts', import.meta.url)),
      'agent-teams': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    globalSetup: ['test/global-setup.ts'],
    // The JSON report is what .ci/run counts passes and failures from.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One test file per core at a time (vitest's own default leaves a core idle).
    maxWorkers: availableParallelism(),
    sequence: { sequencer: SlowFirst },
    projects: [
      project('unit', UNIT),
      // The chaos suites run their seeds concurrently: a seed mostly waits on its store's
      // timers, so 10 overlap in one worker where one at a time left the core idle (more
      // gained little: 94 s against 104 s for chaos-memory, at twice each seed's wait).
      project('runtime', ['test/**/*.test.ts'], { maxConcurrency: 10 }),
      // A trial here is one or two child processes: 5 at once keeps two cores busy, not swamped.
      project('processes', PROCESSES, { maxConcurrency: 5 }),
      project('postgres', POSTGRES, { maxConcurrency: 5 }),
      // A test here holds 15–30 of the server's connections (each process's pool, listener and
      // pg-boss; the zombie file runs two trials at once): one at a time a file keeps the suite
      // well under PostgreSQL's default 100 (the project alone peaked at 45).
      project('workers', WORKERS, { maxConcurrency: 1 }),
      project('browser', BROWSER),
      project('package', PACKAGE),
    ],
  },
});
