/** Where the command keeps its FileStore unless `--store` says otherwise. */
export const DEFAULT_STORE = './.agent-teams';

/** A word as a POSIX shell reads it back unchanged: bare when that is safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The flags a run was started with that decide which run `resume` finds and how it goes on. */
export interface RunFlags {
  readonly team?: string;
  readonly model?: string;
  readonly store: string;
  readonly postgres?: string;
  readonly schema?: string;
}

/**
 * The `resume` command that continues a run started from `file` with `flags`, as a person
 * can paste it into a shell: without `--store` it would look in another store, without
 * `--team` it could not pick the team, and without `--model` the agents would go on with
 * another model than the one they started on.
 */
export function resumeCommand(file: string, flags: RunFlags): string {
  const words = ['npx', 'agent-teams', 'resume', file];
  if (flags.team !== undefined) words.push('--team', flags.team);
  if (flags.model !== undefined) words.push('--model', flags.model);
  if (flags.postgres !== undefined) words.push('--postgres', flags.postgres);
  else if (flags.store !== DEFAULT_STORE) words.push('--store', flags.store);
  if (flags.schema !== undefined) words.push('--schema', flags.schema);
  return words.map(shellWord).join(' ');
}
