import { Agent } from '../agent/agent.js';
import { BUDGET_BOUNDS, type Budget, checkBudget } from '../agent/budget.js';
import { checkRoster } from '../agent/participants.js';
import { DEFAULT_PRICES, type ModelPrice } from '../agent/usage.js';
import type { NewTask } from '../board/task.js';
import { checkNewTask } from '../board/task-input.js';
import { checkKnownKeys, shown } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { checkName } from '../errors/names.js';
import { checkSystemPrompts, DEFAULT_PROMPT_BUDGET, MIN_PROMPT_BUDGET } from '../prompt/prompt-room.js';
import type { TeamSettings } from '../run/team-settings.js';
import type { TeamStore } from '../store/team-store.js';
import { checkTelemetry, type TeamTelemetry } from '../telemetry/run-tracing.js';
import { checkHooks, type TeamHooks } from '../tools/hooks.js';
import { type GovernanceConfig, governanceSettings } from './governance-options.js';

export interface TeamConfig extends GovernanceConfig {
  name: string;
  lead: Agent;
  members: readonly Agent[];
  /** Where the task list, mailboxes and event log live. Default: a new `MemoryStore`. */
  store?: TeamStore;
  /** Tasks on the list before the lead's first turn (created as by the lead). Default `[]`. */
  tasks?: readonly NewTask[];
  /** Idle members take unassigned tasks; without it only assigned tasks are worked on. Default `true`. */
  selfClaim?: boolean;
  /** Members in a turn at the same time. Default 4. */
  maxConcurrentMembers?: number;
  /** Lead turns before the final answer, its first turn included. Default 6. */
  maxLeadTurns?: number;
  /** Turns of each member; a member out of turns gives its tasks back. Default 8. */
  maxTurnsPerMember?: number;
  /** Tasks the list holds. Default 50. */
  maxTasks?: number;
  /** The lead writes the final answer; without it the output is the tasks and their results. Default `true`. */
  synthesize?: boolean;
  /** `fail` (default): a member whose turn throws fails the run; `skip`: it is marked failed and its tasks go back. */
  errorHandling?: { onAgentFailure: 'fail' | 'skip' };
  /** Same as `errorHandling: { onAgentFailure: 'skip' }`. Default `false`. */
  partialResults?: boolean;
  /** USD per million tokens by model id, over the built-in table (`DEFAULT_PRICES`). */
  pricing?: Readonly<Record<string, ModelPrice>>;
  /** Bound on one turn, in ms (an agent may set its own); past it the turn is stopped and fails. Default 600,000. */
  turnTimeoutMs?: number;
  /** What a run may spend (a run's own `budget` replaces it); reaching it ends the run with `budget`. */
  budget?: Budget;
  /**
   * Where turns run: `in-process` (default), or `workers`: each turn is queued as a pg-boss job
   * (the store must be a PostgresStore) and run by `agent-teams worker` processes anywhere.
   */
  executor?: 'in-process' | 'workers';
  /** OpenTelemetry spans for each run and turn, with the AI SDK's under them (see `TeamTelemetry`). Default: none. */
  telemetry?: TeamTelemetry;
  /**
   * Bound on every prompt the runtime builds (a turn's system prompt and briefing together) and
   * every team tool's answer, in o200k tokens: long lists are summarised and paged, a synthesis
   * over more results than fit is done in parts. Default 24,000; at least 2,000.
   */
  promptBudgetTokens?: number;
  /** Lifecycle hooks that may reject a task's creation or completion, or a member's going idle. */
  hooks?: TeamHooks;
}

// Every key of TeamConfig, so an unknown one is refused (`satisfies` keeps the list whole).
const TEAM_OPTIONS = Object.keys({
  name: true,
  lead: true,
  members: true,
  store: true,
  tasks: true,
  selfClaim: true,
  maxConcurrentMembers: true,
  maxLeadTurns: true,
  maxTurnsPerMember: true,
  maxTasks: true,
  synthesize: true,
  errorHandling: true,
  partialResults: true,
  pricing: true,
  turnTimeoutMs: true,
  budget: true,
  executor: true,
  telemetry: true,
  promptBudgetTokens: true,
  workspace: true,
  permissions: true,
  planApprovalTimeoutMs: true,
  permissionTimeoutMs: true,
  hooks: true,
} satisfies Record<keyof TeamConfig, true>);
const ERROR_HANDLING_OPTIONS = ['onAgentFailure'];
const PRICE_OPTIONS = ['input', 'output'] as const;

function count(name: string, value: unknown, fallback: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || (chosen as number) < 1) {
    throw new TeamError(
      'invalid-input',
      `${name} must be a whole number of at least 1, not ${String(value)}.`,
    );
  }
  return chosen as number;
}

function flag(name: string, value: unknown, fallback: boolean): boolean {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'boolean') throw new TeamError('invalid-input', `${name} must be true or false.`);
  return chosen;
}

function prices(value: TeamConfig['pricing']): Readonly<Record<string, ModelPrice>> {
  if (value === undefined) return DEFAULT_PRICES;
  if (typeof value !== 'object' || value === null) {
    throw new TeamError('invalid-input', 'pricing must be an object of prices by model id.');
  }
  for (const [model, price] of Object.entries(value)) {
    const what = `the price of ${shown(model)}`;
    if (typeof price !== 'object' || price === null) {
      throw new TeamError('invalid-input', `${what} must be { input, output } in USD per million tokens.`);
    }
    checkKnownKeys(what, price, PRICE_OPTIONS);
    for (const side of PRICE_OPTIONS) {
      const usd = price[side];
      if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0) {
        throw new TeamError('invalid-input', `${what}: ${side} must be a number of USD of 0 or more.`);
      }
    }
  }
  return { ...DEFAULT_PRICES, ...value };
}

/** Checks a team's config and fills in the defaults; throws `invalid-input` naming what is wrong. */
export function teamSettings(config: TeamConfig): TeamSettings {
  if (typeof config !== 'object' || config === null) {
    throw new TeamError('invalid-input', 'A team needs a config with its name, lead and members.');
  }
  const name = checkName('team', config.name);
  checkKnownKeys(`the team ${name}`, config, TEAM_OPTIONS);
  if (!(config.lead instanceof Agent))
    throw new TeamError('invalid-input', `The lead of ${name} must be an Agent.`);
  if (!Array.isArray(config.members) || config.members.some((member) => !(member instanceof Agent))) {
    throw new TeamError('invalid-input', `The members of ${name} must be a list of Agents.`);
  }
  checkRoster({ lead: config.lead.name, members: config.members.map((member) => member.name) });
  const { errorHandling } = config;
  if (errorHandling !== undefined) {
    if (typeof errorHandling !== 'object' || errorHandling === null) {
      throw new TeamError(
        'invalid-input',
        'errorHandling must be an object: { onAgentFailure: "fail" | "skip" }.',
      );
    }
    checkKnownKeys('errorHandling', errorHandling, ERROR_HANDLING_OPTIONS);
  }
  const onAgentFailure = errorHandling?.onAgentFailure ?? 'fail';
  if (onAgentFailure !== 'fail' && onAgentFailure !== 'skip') {
    throw new TeamError('invalid-input', 'errorHandling.onAgentFailure must be "fail" or "skip".');
  }
  if (config.tasks !== undefined && !Array.isArray(config.tasks)) {
    throw new TeamError('invalid-input', 'tasks must be a list of tasks.');
  }
  // Each task's own fields, now rather than when a run starts (the list is checked then).
  for (const task of config.tasks ?? []) checkNewTask(task);
  const promptBudgetTokens = count('promptBudgetTokens', config.promptBudgetTokens, DEFAULT_PROMPT_BUDGET);
  if (promptBudgetTokens < MIN_PROMPT_BUDGET) {
    throw new TeamError(
      'invalid-input',
      `promptBudgetTokens must be at least ${MIN_PROMPT_BUDGET}, not ${promptBudgetTokens}.`,
    );
  }
  checkSystemPrompts({ name, lead: config.lead, members: config.members }, promptBudgetTokens);
  return {
    name,
    lead: config.lead,
    members: config.members,
    tasks: config.tasks ?? [],
    selfClaim: flag('selfClaim', config.selfClaim, true),
    maxConcurrentMembers: count('maxConcurrentMembers', config.maxConcurrentMembers, 4),
    maxLeadTurns: count('maxLeadTurns', config.maxLeadTurns, 6),
    maxTurnsPerMember: count('maxTurnsPerMember', config.maxTurnsPerMember, 8),
    maxTasks: count('maxTasks', config.maxTasks, 50),
    synthesize: flag('synthesize', config.synthesize, true),
    skipFailedMembers: onAgentFailure === 'skip' || flag('partialResults', config.partialResults, false),
    pricing: prices(config.pricing),
    turnTimeoutMs: count('turnTimeoutMs', config.turnTimeoutMs, 600_000),
    budget: checkBudget(`the team ${name}`, config.budget, BUDGET_BOUNDS),
    executor: executorOf(config.executor),
    telemetry: checkTelemetry(config.telemetry),
    promptBudgetTokens,
    governance: governanceSettings(config, [config.lead, ...config.members]),
    hooks: checkHooks(config.hooks),
  };
}

function executorOf(value: unknown): 'in-process' | 'workers' {
  if (value === undefined || value === 'in-process' || value === 'workers') return value ?? 'in-process';
  throw new TeamError('invalid-input', `executor must be 'in-process' or 'workers', not ${shown(value)}.`);
}
