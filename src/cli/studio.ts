import { startStudio } from '../studio/server/serve.js';
import { studioStoreOf } from '../studio/server/studio-store.js';
import type { Team } from '../team/team.js';
import { CliError } from './cli-error.js';
import { loadTeams } from './load-teams.js';
import { chooseStore, type StoreFlags } from './store-choice.js';

export interface StudioCommandOptions extends StoreFlags {
  readonly port?: string;
  readonly host: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

function portOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    throw new CliError(`--port takes a port number (0-65535), not ${text}`);
  return port;
}

/**
 * `agent-teams studio`: serves the Studio for the teams `file` exports and every run in the
 * store, until Ctrl-C. Prints the page's address, with the launch's token, on one line.
 */
export async function studioCommand(file: string | undefined, options: StudioCommandOptions): Promise<void> {
  const port = portOf(options.port);
  const teams: Record<string, Team> = file ? await loadTeams(file) : {};
  const studio = studioStoreOf(await chooseStore(options, { create: true }));
  if (!LOOPBACK.test(options.host)) {
    process.stderr.write(
      `agent-teams studio: warning: listening on ${options.host}, not only this machine: anyone who reaches it and has the URL can run, message and abort your teams.\n`,
    );
  }
  const server = await startStudio({ teams, studio, host: options.host, port });
  const names = Object.values(teams).map((team) => team.name);
  process.stdout.write(
    `agent-teams studio on the store ${studio.label}` +
      (names.length ? `, teams ${names.join(', ')}` : ', no team file (runs can be watched, not started)') +
      `\nopen ${server.url}\nCtrl-C stops it.\n`,
  );
  let stop = () => {};
  const stopping = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await stopping;
  const stopped = await server.close();
  await studio.store.close();
  // Only now: signal-exit (under the FileStore's locks) kills the process with the signal
  // when it sees no listener of the signal but its own, and a closing Studio must not die.
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  if (!stopped) {
    // A turn that ignored the abort would hold the process for as long as its own timeout.
    process.stdout.write(
      'A run did not stop in time: it is cut off, and `agent-teams resume` continues it.\n',
    );
    process.exit(0);
  }
}
