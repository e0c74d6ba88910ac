import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { BUDGET_SCHEMA, type Budget } from '../agent/budget.js';
import { checkRoster } from '../agent/participants.js';
import { DEFAULT_PRICES, type ModelPrice } from '../agent/usage.js';
import type { NewTask } from '../board/task.js';
import { checkNewTask } from '../board/task-input.js';
import { checkName } from '../errors/names.js';
import { milliseconds, parseOptions, satisfying, wholeNumber } from '../errors/options-schema.js';
import { type Clock, systemClock } from '../events/clock.js';
import { checkSystemPrompts, DEFAULT_PROMPT_BUDGET, MIN_PROMPT_BUDGET } from '../prompt/prompt-room.js';
import type { TeamSettings } from '../run/team-settings.js';
import { DEFAULT_STORE_OUTAGE_MS } from '../store/outage-watch.js';
import type { TeamStore } from '../store/team-store.js';
import { TELEMETRY_SCHEMA, type TeamTelemetry } from '../telemetry/run-tracing.js';
import { HOOKS_SCHEMA, type TeamHooks } from '../tools/hooks.js';
import { FORMATION_SHAPE, type FormationConfig, formationSettings } from './formation-options.js';
import { GOVERNANCE_SHAPE, type GovernanceConfig, governanceSettings } from './governance-options.js';

export interface TeamConfig extends GovernanceConfig, FormationConfig {
  /** The team's name, unique in its store. */
  name: string;
  /** The agent that plans the work as tasks and writes the final answer. */
  lead: Agent;
  /** The agents that claim and do the tasks. */
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
  errorHandling?: {
    /** What a member's failed turn does to the run. */
    onAgentFailure: 'fail' | 'skip';
  };
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
  /**
   * How long a run waits for a store it cannot reach (a PostgreSQL server restarting, failing
   * over, out of the network), in ms: it says so (`team:store-outage`) and goes on once the
   * store answers; past this it ends with `store-unavailable`, and `resume` continues it.
   * A worker's turns wait as long. Default 300,000 (5 minutes); from 1,000 to 86,400,000 (a day).
   */
  storeOutageMs?: number;
  /**
   * Where the runtime reads the time and waits: request expiries, turn timeouts, the time
   * budget. Default: the system clock. The testing kit's `manualClock()` moves only when told,
   * so a test of an expiry does not wait; give its store the same clock (`now: clock.date`).
   */
  clock?: Clock;
}

// Every method of the contract, so a store object of one's own that lacks one is refused when
// the team is made, not with a TypeError in the middle of a run.
const STORE_METHODS = Object.keys({
  createTeam: true,
  getTeam: true,
  listTeams: true,
  transact: true,
  startRun: true,
  resumeRun: true,
  leaveRun: true,
  listRuns: true,
  readEvents: true,
  subscribe: true,
  close: true,
  // Optional: holdTurn (only a worker's store for one attempt has it) and withOutageWatch (only
  // a store that can lose its connection).
} satisfies Record<Exclude<keyof TeamStore, 'holdTurn' | 'withOutageWatch'>, true>) as (keyof TeamStore)[];
const isStore = (store: unknown) =>
  typeof store === 'object' &&
  store !== null &&
  STORE_METHODS.every((method) => typeof (store as Partial<TeamStore>)[method] === 'function');
const anAgent = satisfying<Agent>((agent) => agent instanceof Agent, 'an Agent');
const OUTAGE_RANGE = { least: 1_000, most: 86_400_000 } as const;
const OUTAGE = 'a whole number of ms from 1,000 to 86,400,000 (a day)';
const usd = z
  .number({ error: 'a number of USD per million tokens, 0 or more' })
  .min(0, { error: 'a number of USD per million tokens, 0 or more' });

/** The schema of `TeamConfig`: every key of it (`satisfies` keeps the list whole), none other. */
const TEAM_SCHEMA = z.strictObject({
  name: z.string(),
  lead: anAgent,
  members: z.array(anAgent).min(1, { error: 'a list of at least one Agent' }),
  store: satisfying<TeamStore>(
    isStore,
    `a TeamStore (a MemoryStore, FileStore or PostgresStore, or an object with every method of one: ${STORE_METHODS.join(', ')})`,
  ).optional(),
  // Each task's fields are checked by the task list's own rule (`checkNewTask`) after.
  tasks: z.array(z.unknown()).optional(),
  selfClaim: z.boolean().optional(),
  maxConcurrentMembers: wholeNumber(1).optional(),
  maxLeadTurns: wholeNumber(1).optional(),
  maxTurnsPerMember: wholeNumber(1).optional(),
  maxTasks: wholeNumber(1).optional(),
  synthesize: z.boolean().optional(),
  errorHandling: z.strictObject({ onAgentFailure: z.enum(['fail', 'skip']).optional() }).optional(),
  partialResults: z.boolean().optional(),
  pricing: z
    .record(
      z.string(),
      z.strictObject({ input: usd, output: usd } satisfies Record<keyof ModelPrice, z.ZodType>),
      {
        error: 'an object of prices by model id: { [modelId]: { input, output } }',
      },
    )
    .optional(),
  turnTimeoutMs: milliseconds().optional(),
  budget: BUDGET_SCHEMA.optional(),
  executor: z.enum(['in-process', 'workers']).optional(),
  telemetry: TELEMETRY_SCHEMA.optional(),
  promptBudgetTokens: wholeNumber(MIN_PROMPT_BUDGET).optional(),
  ...GOVERNANCE_SHAPE,
  ...FORMATION_SHAPE,
  hooks: HOOKS_SCHEMA.optional(),
  storeOutageMs: z
    .int({ error: OUTAGE })
    .min(OUTAGE_RANGE.least, { error: OUTAGE })
    .max(OUTAGE_RANGE.most, { error: OUTAGE })
    .optional(),
  clock: satisfying<Clock>(
    (clock) =>
      typeof (clock as Partial<Clock> | null)?.now === 'function' &&
      typeof (clock as Partial<Clock> | null)?.setTimer === 'function',
    'a Clock: { now(), setTimer(ms, callback) }',
  ).optional(),
} satisfies Record<keyof TeamConfig, z.ZodType>);

/** Checks a team's config and fills in the defaults; throws `invalid-option` naming what is wrong. */
export function teamSettings(config: TeamConfig): TeamSettings {
  // The name first, as the messages of the other options name the team by it.
  const what =
    typeof config === 'object' && config !== null ? `the team ${checkName('team', config.name)}` : 'a team';
  parseOptions(TEAM_SCHEMA, config, what);
  const { name, lead, members } = config;
  checkRoster({ lead: lead.name, members: members.map((member) => member.name) });
  // Each task's own fields, now rather than when a run starts (the list is checked then).
  for (const task of config.tasks ?? []) checkNewTask(task);
  const promptBudgetTokens = config.promptBudgetTokens ?? DEFAULT_PROMPT_BUDGET;
  const formation = formationSettings(config, members.length, what);
  checkSystemPrompts({ name, lead, members, formation }, promptBudgetTokens);
  return {
    name,
    lead,
    members,
    tasks: config.tasks ?? [],
    selfClaim: config.selfClaim ?? true,
    maxConcurrentMembers: config.maxConcurrentMembers ?? 4,
    maxLeadTurns: config.maxLeadTurns ?? 6,
    maxTurnsPerMember: config.maxTurnsPerMember ?? 8,
    maxTasks: config.maxTasks ?? 50,
    synthesize: config.synthesize ?? true,
    skipFailedMembers: config.errorHandling?.onAgentFailure === 'skip' || (config.partialResults ?? false),
    pricing: config.pricing === undefined ? DEFAULT_PRICES : { ...DEFAULT_PRICES, ...config.pricing },
    turnTimeoutMs: config.turnTimeoutMs ?? 600_000,
    budget: config.budget,
    executor: config.executor ?? 'in-process',
    telemetry: config.telemetry === undefined ? undefined : { ...config.telemetry },
    promptBudgetTokens,
    governance: governanceSettings(config, [lead, ...members]),
    formation,
    hooks: config.hooks ?? {},
    storeOutageMs: config.storeOutageMs ?? DEFAULT_STORE_OUTAGE_MS,
    clock: config.clock ?? systemClock,
  };
}
