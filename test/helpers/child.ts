import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Node's arguments to run `script`: a JavaScript fixture (on the build in dist/, through the
 * package's own name) with plain node, which starts in half the CPU time; a TypeScript one
 * through tsx.
 */
const nodeArgs = (script: string, args: string[]) =>
  script.endsWith('.ts') ? ['--import', 'tsx', script, ...args] : [script, ...args];

/** Runs a script in a new Node process (see nodeArgs); resolves with its stdout. */
export function runScript(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(script, args), {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });
}

/**
 * Starts a script in a new Node process (see nodeArgs) to talk to: `line(pattern)`
 * waits for a line of its stdout that matches, `say(line)` writes one to its stdin, `end()`
 * closes stdin and resolves with its exit code.
 */
export function startScript(script: string, args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, nodeArgs(script, args), {
    cwd: projectRoot,
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  void exited.then(() => {
    for (const wake of waiters) wake();
  });
  return {
    child,
    line(pattern: RegExp): Promise<string> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = stdout.split('\n').find((line) => pattern.test(line));
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`${script} exited with ${child.exitCode} before ${pattern}: ${stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    say(line: string): void {
      child.stdin.write(`${line}\n`);
    },
    end(): Promise<number | null> {
      child.stdin.end();
      return exited;
    },
  };
}
