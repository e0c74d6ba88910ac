import { execFile } from 'node:child_process';

// The few tmux commands the split-pane view needs, run as the `tmux` command of the session
// the view runs in: inside a tmux pane, `TMUX` names the server, so every command reaches it.

/** The tmux pane this process runs in, when it runs inside tmux; `undefined` outside it. */
export function tmuxPane(): string | undefined {
  if (!process.env.TMUX) return undefined;
  // tmux sets TMUX_PANE in every pane's environment (`%3`).
  return process.env.TMUX_PANE || undefined;
}

/** Runs `tmux <args>`; answers what it printed, or rejects with what it said on stderr. */
export function tmux(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr.trim() || error.message));
      else resolve(stdout);
    });
  });
}
