import { isTeamError, TeamError } from '../errors/index.js';
import type { StopReason } from '../events/team-event-map.js';
import type { TeamRunResult } from '../fold/run-result.js';
import { runResultOf, turnCounts } from '../fold/run-result-of.js';
import type { RunState } from '../fold/run-state.js';
import { tasksAsOutput } from '../prompt/briefings.js';
import type { TeamRules } from '../store/team-store.js';
import { describeError } from '../turn/turn-outcome.js';
import type { TeamSettings } from './team-settings.js';

/** Why the loop stopped the run before its end, if it did. */
export type Stopping = { readonly reason: 'aborted' | 'failed'; readonly error?: unknown } | null;

/** What failed, as `team:complete` says it: the agent and its error, or the store's. */
function failureText(state: RunState, error: unknown): string {
  const failure = state.failure;
  return failure ? `${failure.agent}: ${failure.error}` : `store: ${describeError(error)}`;
}

/**
 * The run's end for whoever awaits it: its result, or the error that failed it (an agent's
 * failure as `agent-failed`; a hook's or the store's as it was thrown).
 */
function settleRun(state: RunState, stopping: Stopping, result: TeamRunResult): TeamRunResult {
  if (stopping?.reason !== 'failed') return result;
  const failure = state.failure;
  if (!failure || isTeamError(stopping.error, 'hook-failed')) throw stopping.error;
  // A hook that threw in a turn on another process: its error as the log tells it.
  if (failure.fatal) {
    throw new TeamError('hook-failed', failure.error, { details: { agent: failure.agent, result } });
  }
  throw new TeamError('agent-failed', `The agent ${failure.agent} failed: ${failure.error}`, {
    cause: stopping.error,
    details: { agent: failure.agent, result },
  });
}

/** Closes every request still open (its asker stopped, or the run ended on its budget) as the run ends. */
function expireOpen({ requests }: TeamRules, state: RunState, why: string): void {
  for (const request of state.governance.requests.values())
    if (request.status === 'open') requests.expire(request.id, `No answer before ${why}`);
}

/**
 * The run's end: its final answer, its last event (`team:complete`, after requeueing what a
 * stopped run left in progress, or expiring the requests a finished run left open) and its
 * result for whoever awaits it.
 */
export async function finishRun(
  state: RunState,
  settings: TeamSettings,
  stopping: Stopping,
  reason: StopReason,
  transact: <T>(fn: (rules: TeamRules) => T) => Promise<T>,
): Promise<TeamRunResult> {
  const lead = state.agents.get(settings.lead.name);
  const { tasks, output } = await transact((rules) => {
    const { board, emit } = rules;
    // Nothing is left in progress with nobody on it; assignments stay for a resume.
    if (stopping) board.requeueInProgress(settings.lead.name);
    else expireOpen(rules, state, 'the run ended'); // a run that ends leaves no request open
    const tasks = board.listTasks();
    let output = '';
    if (reason === 'no-tasks') output = state.startOutput ?? '';
    else if (!stopping) output = settings.synthesize ? (lead?.lastOutput ?? '') : tasksAsOutput(tasks);
    const failed = stopping?.reason === 'failed' ? failureText(state, stopping.error) : null;
    const data = { stopReason: reason, tasks: board.counts(), ...turnCounts(state), error: failed, output };
    emit({ type: 'team:complete', data });
    return { tasks, output };
  });
  return settleRun(state, stopping, runResultOf(state, output, tasks, reason));
}
