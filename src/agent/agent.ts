import type { ToolSet } from 'ai';
import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import { checkName } from '../errors/names.js';
import { type AgentGovernance, type AgentGovernanceConfig, agentGovernance } from './agent-governance.js';
import { AGENT_BUDGET_BOUNDS, type AgentBudget, checkBudget } from './budget.js';
import { checkModelSettings, type ModelSettings } from './model-settings.js';
import type { ModelSpec } from './resolve-model.js';

export interface AgentMetadata {
  /** What the agent is good at; the lead reads it in the roster. */
  expertise?: readonly string[];
  [key: string]: unknown;
}

export interface AgentConfig extends ModelSettings, AgentGovernanceConfig {
  name: string;
  /** An AI SDK language model, or `provider/model` (see `resolveModel`). */
  model: ModelSpec;
  instructions: string;
  /** What the lead reads about this agent; the start of `instructions` when left out. */
  description?: string;
  /** Model calls (tool-loop steps) in one turn. Default 10. */
  maxIterations?: number;
  /** AI SDK tools of its own; one named like a team tool takes that tool's place. */
  tools?: ToolSet;
  metadata?: AgentMetadata;
  /** Bound on one of its turns, in ms; past it the turn is stopped and fails. Default: the team's `turnTimeoutMs`. */
  turnTimeoutMs?: number;
  /** Retries of a failed model call (the AI SDK's `maxRetries`, with its backoff). Default 2. */
  maxRetries?: number;
  /** What this agent may spend in a run; reaching it stops the agent (its tasks go back). */
  budget?: AgentBudget;
}

const DEFAULT_MAX_ITERATIONS = 10;

// Every key of AgentConfig, so an unknown one is refused (`satisfies` keeps the list whole).
const AGENT_OPTIONS = Object.keys({
  name: true,
  model: true,
  instructions: true,
  description: true,
  maxIterations: true,
  tools: true,
  metadata: true,
  turnTimeoutMs: true,
  maxRetries: true,
  budget: true,
  temperature: true,
  maxOutputTokens: true,
  providerOptions: true,
  requirePlanApproval: true,
  permissionMode: true,
  classifier: true,
} satisfies Record<keyof AgentConfig, true>);

function positive(agent: string, option: string, value: unknown, least: number): number {
  if (!Number.isInteger(value) || (value as number) < least) {
    throw new TeamError(
      'invalid-input',
      `${option} of ${agent} must be a whole number of at least ${least}.`,
    );
  }
  return value as number;
}

/**
 * An LLM agent: a name, a model, instructions and tools. A team gives it its team tools
 * and runs its turns.
 *
 * @example
 * const researcher = new Agent({ name: 'researcher', model: 'openai/gpt-5.5', instructions: 'Research.',
 *   description: 'Finds facts and sources', metadata: { expertise: ['sources'] } });
 */
export class Agent {
  readonly name: string;
  readonly model: ModelSpec;
  readonly instructions: string;
  readonly description: string | undefined;
  readonly maxIterations: number;
  readonly tools: ToolSet;
  readonly metadata: AgentMetadata;
  readonly turnTimeoutMs: number | undefined;
  readonly maxRetries: number;
  readonly budget: AgentBudget | undefined;
  readonly temperature: number | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly providerOptions: ModelSettings['providerOptions'];
  /** Plan approval and permissions (see src/governance). */
  readonly governance: AgentGovernance;
  readonly #config: AgentConfig;

  constructor(config: AgentConfig) {
    if (typeof config !== 'object' || config === null) {
      throw new TeamError('invalid-input', 'An agent needs a config with its name, model and instructions.');
    }
    this.name = checkName('agent', config.name);
    checkKnownKeys(`the agent ${this.name}`, config, AGENT_OPTIONS);
    if (config.model === undefined || config.model === null || config.model === '') {
      throw new TeamError('invalid-input', `The agent ${this.name} needs a model.`);
    }
    if (typeof config.instructions !== 'string') {
      throw new TeamError('invalid-input', `The agent ${this.name} needs instructions (a string).`);
    }
    const maxIterations = config.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (!Number.isInteger(maxIterations) || maxIterations < 1) {
      throw new TeamError(
        'invalid-input',
        `maxIterations of ${this.name} must be a whole number of at least 1.`,
      );
    }
    if (config.description !== undefined && typeof config.description !== 'string') {
      throw new TeamError('invalid-input', `The description of ${this.name} must be a string.`);
    }
    for (const field of ['tools', 'metadata'] as const) {
      const value = config[field];
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
        throw new TeamError('invalid-input', `The ${field} of ${this.name} must be an object.`);
      }
    }
    this.turnTimeoutMs =
      config.turnTimeoutMs === undefined
        ? undefined
        : positive(this.name, 'turnTimeoutMs', config.turnTimeoutMs, 1);
    this.maxRetries = positive(this.name, 'maxRetries', config.maxRetries ?? 2, 0);
    this.budget = checkBudget(`the agent ${this.name}`, config.budget, AGENT_BUDGET_BOUNDS);
    const settings = checkModelSettings(this.name, config);
    this.temperature = settings.temperature;
    this.maxOutputTokens = settings.maxOutputTokens;
    this.providerOptions = settings.providerOptions;
    this.governance = agentGovernance(this.name, config);
    this.#config = config;
    this.model = config.model;
    this.instructions = config.instructions;
    this.description = config.description;
    this.maxIterations = maxIterations;
    this.tools = config.tools ?? {};
    this.metadata = config.metadata ?? {};
  }

  /** The same agent with another model (for a quick try, or a test). */
  withModel(model: ModelSpec): Agent {
    return new Agent({ ...this.#config, model });
  }

  /** What the lead reads about the agent: its description, or the start of its instructions. */
  get summary(): string {
    const text = (this.description ?? this.instructions).trim().replace(/\s+/g, ' ');
    return text.length > 160 ? `${text.slice(0, 157)}...` : text;
  }
}
