import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      'agent-teams/testing': fileURLToPath(new URL('./src/testing.ts', import.meta.url)),
      'agent-teams/postgres': fileURLToPath(new URL('./src/postgres.ts', import.meta.url)),
      'agent-teams': fileURLToPath(new URL('./src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // The JSON report is what .ci/run counts passes and failures from.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
