import type { TokenUsage } from '../agent/usage.js';
import type { TeamTask } from '../board/task.js';
import type { AgentRole, MemberStatus, StopReason } from '../events/team-event-map.js';

/** One agent at the end of a run. */
export interface MemberSummary {
  /** The agent's name. */
  readonly name: string;
  /** Whether it leads or is a member. */
  readonly role: AgentRole;
  /** Its status when the run ended. */
  readonly status: MemberStatus;
  /** The turns it took. */
  readonly turns: number;
  /** The task it works on; `null` once the run is over unless it was cut off. */
  readonly taskId: string | null;
}

/** The last result of one agent. */
export interface AgentResult {
  /** The agent's name. */
  readonly agent: string;
  /** Whether it leads or is a member. */
  readonly role: AgentRole;
  /** Its final reply in its last turn. */
  readonly output: string;
  /** The turns it took. */
  readonly turns: number;
  /** The tokens and cost of its turns. */
  readonly usage: TokenUsage;
}

/** The team's side of a run's result: its tasks, its agents, and how the run ended. */
export interface TeamResult {
  /** Every task, as the run left it. */
  readonly tasks: readonly TeamTask[];
  /** The lead first, then the members. */
  readonly members: readonly MemberSummary[];
  /** How the run ended. */
  readonly stopReason: StopReason;
  /** Turns of the lead, the final answer included. */
  readonly leadTurns: number;
  /** The members' turns, all together. */
  readonly memberTurns: number;
}

/** The tokens and cost of a run: in all, and agent by agent. */
export interface RunUsage {
  /** The whole run's. */
  readonly total: TokenUsage;
  /** Each agent's, by name. */
  readonly byAgent: Readonly<Record<string, TokenUsage>>;
}

/** What a run ends with: its final answer, each agent's result, the team's, and the usage. */
export interface TeamRunResult {
  /** The lead's final answer (or, without synthesis, the tasks and their results). */
  readonly output: string;
  /** Each agent's last result, by name. */
  readonly agentResults: Readonly<Record<string, AgentResult>>;
  /** The tasks, the agents and how the run ended. */
  readonly teamResult: TeamResult;
  /** Tokens, and cost in USD where every model involved is priced. */
  readonly usage: RunUsage;
  /** The run's id, to resume or inspect it by. */
  readonly runId: string;
}
