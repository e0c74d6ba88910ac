import type { ToolSet } from 'ai';
import { z } from 'zod';
import { checkName } from '../errors/names.js';
import {
  milliseconds,
  parseOptions,
  plainObject,
  satisfying,
  wholeNumber,
} from '../errors/options-schema.js';
import {
  AGENT_GOVERNANCE_SHAPE,
  type AgentGovernance,
  type AgentGovernanceConfig,
  agentGovernance,
} from './agent-governance.js';
import { AGENT_BUDGET_SCHEMA, type AgentBudget } from './budget.js';
import { MODEL_SETTINGS_SHAPE, type ModelSettings } from './model-settings.js';
import type { ModelSpec } from './resolve-model.js';

/** What the lead reads about an agent besides its description; free keys are kept as given. */
export interface AgentMetadata {
  /** What the agent is good at; the lead reads it in the roster. */
  expertise?: readonly string[];
  [key: string]: unknown;
}

/** What `new Agent` takes. */
export interface AgentConfig extends ModelSettings, AgentGovernanceConfig {
  /** Its name in the team, unique there (messages, tasks and the roster use it). */
  name: string;
  /** An AI SDK language model, or `provider/model` (see `resolveModel`). */
  model: ModelSpec;
  /** Its system prompt: who it is and how it works. */
  instructions: string;
  /** What the lead reads about this agent; the start of `instructions` when left out. */
  description?: string;
  /** Model calls (tool-loop steps) in one turn. Default 10. */
  maxIterations?: number;
  /** AI SDK tools of its own; one named like a team tool takes that tool's place. */
  tools?: ToolSet;
  /** What the lead reads about it besides its description. */
  metadata?: AgentMetadata;
  /** Bound on one of its turns, in ms; past it the turn is stopped and fails. Default: the team's `turnTimeoutMs`. */
  turnTimeoutMs?: number;
  /** Retries of a failed model call (the AI SDK's `maxRetries`, with its backoff). Default 2. */
  maxRetries?: number;
  /** What this agent may spend in a run; reaching it stops the agent (its tasks go back). */
  budget?: AgentBudget;
}

const DEFAULT_MAX_ITERATIONS = 10;

/** An agent's own config, read by `spawnedFrom` (set in the class's static block: not part of the API). */
let configOf: (agent: Agent) => AgentConfig;

/** A model as `resolveModel` takes it: an AI SDK language model, or a `provider/model` string. */
export const isModelSpec = (value: unknown) =>
  (typeof value === 'string' && value !== '') ||
  (typeof value === 'object' &&
    value !== null &&
    typeof (value as { doGenerate?: unknown }).doGenerate === 'function');

/** The schema of `AgentConfig`: every key of it (`satisfies` keeps the list whole), none other. */
const AGENT_SCHEMA = z.strictObject({
  name: z.string(),
  model: satisfying<ModelSpec>(isModelSpec, 'an AI SDK language model or a "provider/model" string'),
  instructions: z.string(),
  description: z.string().optional(),
  maxIterations: wholeNumber(1).optional(),
  tools: plainObject<ToolSet>('an object of AI SDK tools by name').optional(),
  metadata: z.looseObject({ expertise: z.array(z.string()).optional() }).optional(),
  turnTimeoutMs: milliseconds().optional(),
  maxRetries: wholeNumber(0).optional(),
  budget: AGENT_BUDGET_SCHEMA.optional(),
  ...MODEL_SETTINGS_SHAPE,
  ...AGENT_GOVERNANCE_SHAPE,
} satisfies Record<keyof AgentConfig, z.ZodType>);

/**
 * An LLM agent: a name, a model, instructions and tools. A team gives it its team tools
 * and runs its turns.
 *
 * @example
 * const researcher = new Agent({ name: 'researcher', model: 'openai/gpt-5.5', instructions: 'Research.',
 *   description: 'Finds facts and sources', metadata: { expertise: ['sources'] } });
 */
export class Agent {
  /** Its name in the team. */
  readonly name: string;
  /** Its model: an AI SDK language model or `provider/model`. */
  readonly model: ModelSpec;
  /** Its system prompt. */
  readonly instructions: string;
  /** What the lead reads about it, when given (see `summary`). */
  readonly description: string | undefined;
  /** Model calls in one turn at most. */
  readonly maxIterations: number;
  /** Its own AI SDK tools, by name. */
  readonly tools: ToolSet;
  /** What the lead reads about it besides its description. */
  readonly metadata: AgentMetadata;
  /** Bound on one of its turns, in ms; `undefined`: the team's. */
  readonly turnTimeoutMs: number | undefined;
  /** Retries of a failed model call. */
  readonly maxRetries: number;
  /** What it may spend in a run; `undefined`: no bound of its own. */
  readonly budget: AgentBudget | undefined;
  /** The sampling temperature of its calls; `undefined`: the provider's. */
  readonly temperature: number | undefined;
  /** Output tokens of one call at most; `undefined`: the provider's. */
  readonly maxOutputTokens: number | undefined;
  /** Options passed to its provider as they are. */
  readonly providerOptions: ModelSettings['providerOptions'];
  /** Plan approval and permissions (see src/governance). */
  readonly governance: AgentGovernance;
  readonly #config: AgentConfig;

  static {
    configOf = (agent) => agent.#config;
  }

  constructor(config: AgentConfig) {
    // The name first, as the messages of the other options name the agent by it.
    const what =
      typeof config === 'object' && config !== null
        ? `the agent ${checkName('agent', config.name)}`
        : 'an agent';
    parseOptions(AGENT_SCHEMA, config, what);
    this.name = config.name;
    this.governance = agentGovernance(this.name, config);
    this.#config = config;
    this.model = config.model;
    this.instructions = config.instructions;
    this.description = config.description;
    this.maxIterations = config.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    this.tools = config.tools ?? {};
    this.metadata = config.metadata ?? {};
    this.turnTimeoutMs = config.turnTimeoutMs;
    this.maxRetries = config.maxRetries ?? 2;
    this.budget = config.budget;
    this.temperature = config.temperature;
    this.maxOutputTokens = config.maxOutputTokens;
    this.providerOptions = config.providerOptions;
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

/**
 * The agent a catalog entry of a team starts as a new member: the entry as it is defined (its
 * tools, limits, governance and description) under the member's name, with its instructions and model.
 */
export function spawnedFrom(
  entry: Agent,
  member: { readonly name: string; readonly instructions: string; readonly model: ModelSpec },
): Agent {
  return new Agent({ ...configOf(entry), ...member });
}
