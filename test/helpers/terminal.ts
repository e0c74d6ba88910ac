import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';

// The command in a real pseudo-terminal (util-linux `script`) of a given size, its output
// played into a real terminal emulator (xterm.js, headless) of the same size: what a person
// would see on the screen and scroll back to, not the escape codes that drew it.

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface Size {
  readonly cols: number;
  readonly rows: number;
}

/**
 * Runs the command at `size`; `interrupt` says when (from the output so far) to press Ctrl-C.
 * `env` changes the command's environment (a variable set to `undefined` is left out).
 */
export function inTerminal(
  size: Size,
  args: string[],
  cwd: string,
  interrupt?: (output: string) => boolean,
  env: Record<string, string | undefined> = {},
) {
  const command = `stty cols ${size.cols} rows ${size.rows}; exec node ${CLI} ${args.map((arg) => `'${arg}'`).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { ...process.env, TERM: 'xterm-256color', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let pressed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (interrupt && !pressed && interrupt(output)) {
      pressed = true;
      child.stdin.write('\x03'); // Ctrl-C, as the terminal sends it
    }
  });
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

/** Every line the terminal holds at the end (its scrollback, then the screen), and the screen. */
export async function screen(size: Size, output: string) {
  const terminal = new xterm.Terminal({
    cols: size.cols,
    rows: size.rows,
    scrollback: 5000,
    allowProposedApi: true,
  });
  await new Promise<void>((resolve) => terminal.write(output, resolve));
  const buffer = terminal.buffer.active;
  const all: string[] = [];
  for (let index = 0; index < buffer.length; index++)
    all.push(buffer.getLine(index)?.translateToString(true) ?? '');
  terminal.dispose();
  return { all, visible: all.slice(buffer.baseY, buffer.baseY + size.rows) };
}
