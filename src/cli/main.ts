#!/usr/bin/env node
import { describeError } from './cli-error.js';
import { program } from './program.js';

// Errors a person will hit get one line and a non-zero exit, never a stack trace
// (AGENT_TEAMS_DEBUG=1 shows it).
// A reader that goes away (\`| head\`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

let exitCode = 0;
try {
  await program((code) => {
    exitCode = code;
  }).parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`agent-teams: ${describeError(error)}\n`);
  if (process.env.AGENT_TEAMS_DEBUG) console.error(error);
  exitCode = (error as { exitCode?: number }).exitCode ?? 1;
}
process.exitCode = exitCode;
