// The words of a run that its events use: roles, turn reasons, statuses, stop reasons.

/** Why an agent takes a turn. */
export type TurnReason = 'start' | 'task' | 'message' | 'stalled' | 'synthesis';
export type AgentRole = 'lead' | 'member';
/**
 * `waiting`: between turns, on a request it opened or a question it asked (the run's state says
 * which); `shutdown`: the member was shut down; `removed`: it was removed from the team. Neither
 * of the last two takes more turns.
 */
export type MemberStatus = 'idle' | 'working' | 'waiting' | 'stopped' | 'failed' | 'shutdown' | 'removed';
/** Why a run ended: the seed's four, `aborted` (by its signal) and `failed` (an agent's turn threw). */
export type StopReason =
  | 'completed'
  | 'no-tasks'
  | 'stalled'
  | 'turn-limit'
  | 'budget'
  | 'aborted'
  | 'failed';

/**
 * One turn of a synthesis done in parts, when the team's results do not fit in one prompt
 * (`promptBudgetTokens`): level 1 summarises task results, each level after it the summaries
 * of the one before, and the `final` turn writes the answer from the last level's summaries.
 */
export interface SynthesisPart {
  readonly level: number;
  /** Its place in its level, from 1, and how many parts the level has. */
  readonly index: number;
  readonly of: number;
  /** What it reads: task ids (level 1), or the keys (`level.index`) of the summaries it reads. */
  readonly inputs: readonly string[];
  readonly final: boolean;
}

/**
 * How many tasks are in each state; `closed` are also counted in `completed`. `deleted` tasks
 * stay on the list (in `total`) but are not open work.
 */
export interface TaskCounts {
  readonly total: number;
  readonly pending: number;
  readonly inProgress: number;
  readonly completed: number;
  readonly closed: number;
  readonly deleted: number;
}
