import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';
import type { Team } from '../team/team.js';
import { CliError } from './cli-error.js';

// A team file's `import ... from 'agent-teams'` (and its subpaths) gets this very
// package, so the file and the command share one copy of every class.
const here = fileURLToPath(new URL('.', import.meta.url));
const entryOf = (name: string) =>
  [`../${name}.js`, `../${name}.ts`].map((file) => path.join(here, file)).find((file) => existsSync(file));
const aliases: Record<string, string> = {};
for (const [specifier, name] of [
  ['agent-teams/testing', 'testing'],
  ['agent-teams/postgres', 'postgres'],
  ['agent-teams', 'index'],
] as const) {
  const entry = entryOf(name);
  if (entry) aliases[specifier] = entry;
}

function isTeam(value: unknown): value is Team {
  const candidate = value as Team | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.run === 'function' &&
    typeof candidate.withStore === 'function'
  );
}

/** The teams a TypeScript or JavaScript file exports as `teams`, loaded without a build step. */
export async function loadTeams(file: string): Promise<Record<string, Team>> {
  const full = path.resolve(file);
  if (!existsSync(full) || !statSync(full).isFile()) throw new CliError(`no such file: ${file}`);
  const jiti = createJiti(import.meta.url, { alias: aliases, moduleCache: false });
  let loaded: { teams?: unknown; default?: { teams?: unknown } };
  try {
    loaded = await jiti.import(full);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load ${file}: ${reason.split('\n')[0]}`);
  }
  const teams = loaded.teams ?? loaded.default?.teams;
  if (typeof teams !== 'object' || teams === null || !Object.values(teams).some(isTeam)) {
    throw new CliError(
      `${file} exports no teams: add \`export const teams = { myTeam }\` with your Team objects`,
    );
  }
  return Object.fromEntries(Object.entries(teams).filter(([, team]) => isTeam(team))) as Record<string, Team>;
}

/** The team named `name`, or the file's only team. */
export function pickTeam(teams: Record<string, Team>, file: string, name: string | undefined): Team {
  const names = Object.keys(teams);
  if (name === undefined) {
    if (names.length === 1) return teams[names[0] as string] as Team;
    throw new CliError(`${file} exports several teams (${names.join(', ')}): choose one with --team`);
  }
  // Own keys only: `--team __proto__` or `--team toString` names no team.
  const team = Object.hasOwn(teams, name) ? teams[name] : undefined;
  if (!team || !isTeam(team))
    throw new CliError(`no team "${name}" in ${file}; its teams: ${names.join(', ')}`);
  return team;
}
