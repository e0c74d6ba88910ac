import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
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
export function startStudioChild(
  args: string[],
  cwd?: string,
  env: Record<string, string> = {},
): Promise<StudioChild> {
  const child = spawn(process.execPath, [CLI, 'studio', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', ...env },
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

/** Debian's chromium (playwright-core brings no browser), or the one CHROMIUM_PATH names. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Whether the browser the Studio's page tests drive is there. Under CI it must be: a missing
 * one fails the test file instead of skipping it. Elsewhere the browser tests skip, saying
 * what to install, as the PostgreSQL tests do without their server, so `npm test` passes on
 * a fresh machine.
 */
export function chromiumAvailable(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch (error) {
    const why = `no Chromium to run at ${CHROMIUM} (${(error as Error).message})`;
    if (process.env.CI) throw new Error(`The browser tests need Chromium under CI: ${why}.`);
    console.warn(
      `Skipping the browser tests: ${why}. Install it with \`apt-get install -y chromium\`, or set CHROMIUM_PATH to a Chromium executable.`,
    );
    return false;
  }
}

/** Debian's chromium, headless, quiet: nothing reaches the network but the page's own server. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
