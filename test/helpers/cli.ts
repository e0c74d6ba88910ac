import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts the real `agent-teams` command (the build in dist/) as a child process. */
export function startCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }) {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done, output: () => stdout, errors: () => stderr };
}

export function cli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliRun> {
  return startCli(args, options).done;
}
