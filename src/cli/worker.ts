import type { TurnReport } from '../turn/workers/turn-worker.js';
import { MAX_WORKER_CONCURRENCY } from '../turn/workers/worker-limits.js';
import { CliError } from './cli-error.js';
import { loadTeams } from './load-teams.js';
import { chooseStore, type StoreFlags } from './store-choice.js';

export interface WorkerFlags extends StoreFlags {
  readonly team?: string;
  readonly concurrency: string;
}

/**
 * `agent-teams worker`: runs the turns of the file's teams (or of `--team`) that their runs
 * queue on PostgreSQL, until SIGINT or SIGTERM; prints a line as each turn starts and ends.
 * Turns in hand when it stops go back to pg-boss, which gives them to another worker.
 */
export async function runWorker(file: string, flags: WorkerFlags, signal: AbortSignal): Promise<void> {
  if (flags.postgres === undefined) {
    throw new CliError(
      'a worker takes its turns from PostgreSQL: give --postgres <url> (or AGENT_TEAMS_POSTGRES_URL)',
    );
  }
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_WORKER_CONCURRENCY) {
    throw new CliError(
      `--concurrency must be a whole number from 1 to ${MAX_WORKER_CONCURRENCY}, not ${flags.concurrency} (run more workers for more turns at once)`,
    );
  }
  const all = await loadTeams(file);
  const chosen = flags.team === undefined ? Object.values(all) : [all[flags.team]];
  if (chosen.some((team) => team === undefined)) {
    throw new CliError(`${file} exports no team ${flags.team}; its teams: ${Object.keys(all).join(', ')}`);
  }
  const store = await chooseStore(flags);
  const { PostgresStore } = await import('../store/postgres/postgres-store.js');
  const { startTurnWorker } = await import('../turn/workers/turn-worker.js');
  if (!(store instanceof PostgresStore)) throw new CliError('a worker needs --postgres');
  const teams = chosen.flatMap((team) => (team ? [team.withStore(store)] : []));
  try {
    const worker = await startTurnWorker({
      teams,
      store,
      concurrency,
      onTurn: (report) => say(line(report)),
      onError: (error) => process.stderr.write(`agent-teams worker: pg-boss: ${error.message}\n`),
    });
    say(
      `worker ${process.pid} takes the turns of ${teams.map((team) => team.name).join(', ')} (${concurrency} at once)`,
    );
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await worker.stop();
    say(`worker ${process.pid} stopped`);
  } finally {
    await store.close();
  }
}

function line({ team, turn, attempt, state }: TurnReport): string {
  const what = `${team}: ${turn.agent} turn ${turn.turn} (${turn.reason}${turn.taskId ? ` on ${turn.taskId}` : ''})`;
  const retry = attempt > 1 ? `, attempt ${attempt}` : '';
  return `${what}${retry} ${state}`;
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}
