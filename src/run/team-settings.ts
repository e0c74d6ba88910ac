import type { Agent } from '../agent/agent.js';
import type { Budget } from '../agent/budget.js';
import type { FormationSettings } from '../agent/team-formation.js';
import type { ModelPrice } from '../agent/usage.js';
import type { NewTask } from '../board/task.js';
import type { Clock } from '../events/clock.js';
import type { TeamTelemetry } from '../telemetry/run-tracing.js';
import type { GovernanceSettings } from '../tools/governance-settings.js';
import type { TeamHooks } from '../tools/hooks.js';

/** The options with their defaults, checked. */
export interface TeamSettings {
  readonly name: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  readonly tasks: readonly NewTask[];
  readonly selfClaim: boolean;
  readonly maxConcurrentMembers: number;
  readonly maxLeadTurns: number;
  readonly maxTurnsPerMember: number;
  readonly maxTasks: number;
  readonly synthesize: boolean;
  /** Whether a member's failure leaves the run going (`skip` or `partialResults`). */
  readonly skipFailedMembers: boolean;
  readonly pricing: Readonly<Record<string, ModelPrice>>;
  readonly turnTimeoutMs: number;
  readonly budget: Budget | undefined;
  readonly executor: 'in-process' | 'workers';
  readonly telemetry: TeamTelemetry | undefined;
  readonly promptBudgetTokens: number;
  /** Workspace, permissions and request timeouts (see src/governance). */
  readonly governance: GovernanceSettings;
  /** The catalog, the models for spawned members, maxMembers and delegate mode. */
  readonly formation: FormationSettings;
  readonly hooks: TeamHooks;
  /** How long a run waits for a store it cannot reach before it fails with `store-unavailable`. */
  readonly storeOutageMs: number;
  readonly clock: Clock;
}
