import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

const CLI = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
export const STUDIO_TEAMS = fileURLToPath(new URL('../fixtures/studio-teams.ts', import.meta.url));

export interface StudioChild {
  readonly child: ChildProcess;
  /** The URL it printed, with its token. */
  readonly url: string;
  /** Stops it as Ctrl-C does; answers its exit code. */
  stop(): Promise<number | null>;
}

/** Starts the real `agent-teams studio` (the build in dist/) and answers once it printed its URL. */
export function startStudioChild(args: string[], cwd?: string): Promise<StudioChild> {
  const child = spawn(process.execPath, [CLI, 'studio', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = stdout.match(/^open (http\S+)$/m)?.[1];
      if (url) {
        resolve({
          child,
          url,
          stop: () => {
            child.kill('SIGINT');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`agent-teams studio exited with ${code}: ${stderr}`)));
  });
}

/** Debian's chromium, headless, quiet: nothing reaches the network but the page's own server. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
