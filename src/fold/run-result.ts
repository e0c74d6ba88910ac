import type { TokenUsage } from '../agent/usage.js';
import type { TeamTask } from '../board/task.js';
import type { AgentRole, MemberStatus, StopReason } from '../events/team-event-map.js';

/** One agent at the end of a run. */
export interface MemberSummary {
  readonly name: string;
  readonly role: AgentRole;
  readonly status: MemberStatus;
  readonly turns: number;
  /** The task it works on; `null` once the run is over unless it was cut off. */
  readonly taskId: string | null;
}

/** The last result of one agent. */
export interface AgentResult {
  readonly agent: string;
  readonly role: AgentRole;
  /** Its final reply in its last turn. */
  readonly output: string;
  readonly turns: number;
  readonly usage: TokenUsage;
}

export interface TeamResult {
  readonly tasks: readonly TeamTask[];
  /** The lead first, then the members. */
  readonly members: readonly MemberSummary[];
  readonly stopReason: StopReason;
  /** Turns of the lead, the final answer included. */
  readonly leadTurns: number;
  readonly memberTurns: number;
}

export interface RunUsage {
  readonly total: TokenUsage;
  readonly byAgent: Readonly<Record<string, TokenUsage>>;
}

export interface TeamRunResult {
  /** The lead's final answer (or, without synthesis, the tasks and their results). */
  readonly output: string;
  readonly agentResults: Readonly<Record<string, AgentResult>>;
  readonly teamResult: TeamResult;
  /** Tokens, and cost in USD where every model involved is priced. */
  readonly usage: RunUsage;
  readonly runId: string;
}
