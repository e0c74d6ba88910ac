// The words of a run that its events use: roles, turn reasons, statuses, stop reasons.

/** Why an agent takes a turn. */
export type TurnReason = 'start' | 'task' | 'message' | 'stalled' | 'synthesis';
/** Whether an agent leads the team or is one of its members. */
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
  /** Its level, from 1. */
  readonly level: number;
  /** Its place in its level, from 1, and how many parts the level has. */
  readonly index: number;
  /** How many parts its level has. */
  readonly of: number;
  /** What it reads: task ids (level 1), or the keys (`level.index`) of the summaries it reads. */
  readonly inputs: readonly string[];
  /** True for the turn that writes the final answer. */
  readonly final: boolean;
}

/**
 * How many tasks are in each state; `closed` are also counted in `completed`. `deleted` tasks
 * stay on the list (in `total`) but are not open work.
 */
export interface TaskCounts {
  /** Every task on the list, deleted ones included. */
  readonly total: number;
  /** Tasks waiting to be claimed. */
  readonly pending: number;
  /** Tasks a member is working on. */
  readonly inProgress: number;
  /** Tasks completed or closed. */
  readonly completed: number;
  /** Tasks the lead closed as no longer needed. */
  readonly closed: number;
  /** Tasks taken off the plan. */
  readonly deleted: number;
}
