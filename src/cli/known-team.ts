import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { whereOf } from './store-choice.js';

// Apart from the inspection commands' module, so that the commands that only need the check
// (`tasks`, `send`, the task edits) do not load the run fold and the views with it.

/** The team's info; a one-line error naming the store's teams when it has no such team. */
export async function knownTeam(store: TeamStore, name: string) {
  const info = await store.getTeam(name);
  if (!info) {
    const names = (await store.listTeams()).map((team) => team.name);
    throw new CliError(
      `no team "${name}" in ${whereOf(store)}${names.length ? `; its teams: ${names.join(', ')}` : ''}`,
    );
  }
  return info;
}
