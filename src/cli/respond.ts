import { USER } from '../agent/participants.js';
import { answerRequest } from '../run/control.js';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { knownTeam } from './known-team.js';

export interface RespondOptions {
  readonly approve?: boolean;
  readonly reject?: boolean;
  readonly feedback?: string;
  readonly always?: boolean;
}

/**
 * `agent-teams respond`: the person's answer to a request of the team's current run (a plan,
 * a permission, a tool call), committed through the store, so a run in another process
 * hears it and the agent that waits on it goes on. Prints one line with the answer.
 */
export async function respond(
  store: TeamStore,
  team: string,
  requestId: string,
  options: RespondOptions,
): Promise<void> {
  if (options.approve === options.reject) throw new CliError('give one of --approve or --reject');
  const info = await knownTeam(store, team);
  if (info.runId === null) throw new CliError(`the team ${team} has no run with requests yet`);
  const approve = options.approve === true;
  if (options.always && !approve) throw new CliError('--always goes with --approve');
  const answer = {
    approve,
    ...(options.feedback === undefined ? {} : { feedback: options.feedback }),
    ...(options.always ? { always: true } : {}),
  };
  const answered = await answerRequest(store, team, requestId, answer, USER);
  const how = approve ? (options.always ? 'approved (always)' : 'approved') : 'rejected';
  process.stdout.write(`${how} ${answered.id} (${answered.kind} from ${answered.from}) in ${team}\n`);
}
