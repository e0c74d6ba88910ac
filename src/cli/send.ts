import { sendAsUser } from '../run/control.js';
import type { TeamStore } from '../store/team-store.js';
import { knownTeam } from './known-team.js';

/**
 * `agent-teams send`: a message from the person running the team to one of its agents (or
 * `lead`, or `everyone`), through the store, so a run in another process hears it. Prints
 * one line with the message's id; refused when no live process runs the team's run.
 */
export async function sendMessage(
  store: TeamStore,
  team: string,
  agent: string,
  content: string,
): Promise<void> {
  await knownTeam(store, team);
  const sent = await sendAsUser(store, team, agent, content);
  process.stdout.write(`sent ${sent.id} to ${sent.to.join(', ')} in ${team}\n`);
}
