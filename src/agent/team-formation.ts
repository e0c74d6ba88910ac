import { TeamError } from '../errors/team-error.js';
import { Agent, spawnedFrom } from './agent.js';
import type { PermissionMode } from './agent-governance.js';
import { type ModelSpec, specName } from './resolve-model.js';

// Members a team's lead starts during a run (`spawn_member`): from the team's `catalog`, or
// from free instructions on a model its `spawnModels` allows. The join records what any
// process needs to run such a member again from the team's own definition (a worker, a resume).

/**
 * A member that joined during a run, as its join records it: what any process needs to run its turns.
 * @inline
 */
export interface JoinedMember {
  /** The member's name. */
  readonly name: string;
  /** What it does, as the lead reads it. */
  readonly description: string;
  /** `provider/model`. */
  readonly model: string;
  /** Its permission mode (a `PermissionMode`). */
  readonly mode: string;
  /** Its instructions. */
  readonly instructions: string;
  /** The catalog entry it was spawned from (`spawn_member { definition }`), if it was. */
  readonly definition?: string;
}

/** What a team lets its lead start: the `catalog` and `spawnModels` options, checked. */
export interface SpawnOptions {
  /** Agents the lead may start, by definition name (the entry's own name is not used). */
  readonly catalog: Readonly<Record<string, Agent>>;
  /** Models the lead may name (`provider/model`) for a member it spawns; the first is the default. */
  readonly spawnModels: readonly ModelSpec[];
}

/** How the team forms itself as it runs: the options with their defaults, checked. */
export interface FormationSettings extends SpawnOptions {
  /** Members on the team at once, fixed and spawned together (the lead not counted). */
  readonly maxMembers: number;
  /** The lead only coordinates: its tools are the team's coordination tools alone. */
  readonly delegate: boolean;
}

/** Whether the lead may start members: the team has a catalog, or models for free instructions. */
export function canSpawn(formation: SpawnOptions): boolean {
  return Object.keys(formation.catalog).length > 0 || formation.spawnModels.length > 0;
}

/** What the lead asks for with `spawn_member`. */
export interface SpawnRequest {
  readonly name: string;
  readonly definition?: string | undefined;
  readonly instructions?: string | undefined;
  readonly model?: string | undefined;
}

/** What the roster shows of an agent: its description, its model (`provider/model`), its permission mode. */
export function profileOf(agent: Agent): { description: string; model: string; mode: string } {
  return { description: agent.summary, model: specName(agent.model), mode: agent.governance.permissionMode };
}

/** The longest instructions a spawn takes, in characters (its system prompt is bounded in tokens too). */
export const MAX_SPAWN_INSTRUCTIONS = 20_000;

/** The model `name` (`provider/model`) names among the allowed ones; `model-not-allowed` listing them otherwise. */
function allowedModel(options: SpawnOptions, name: string): ModelSpec {
  const found = options.spawnModels.find((spec) => specName(spec) === name);
  if (found !== undefined) return found;
  const allowed = options.spawnModels.map(specName);
  throw new TeamError(
    'model-not-allowed',
    allowed.length > 0
      ? `The model ${JSON.stringify(name)} is not one this team allows for a new member; it allows ${allowed.join(', ')}.`
      : `This team allows no model for a new member to be named (spawnModels): leave model out to use its definition's.`,
    { details: { model: name, allowed } },
  );
}

function definitionsText(options: SpawnOptions): string {
  const names = Object.keys(options.catalog);
  return names.length > 0 ? `its definitions are ${names.join(', ')}` : 'it has no catalog of definitions';
}

/**
 * The Agent a spawn makes, checked: a catalog entry (`definition`) under the new name, the
 * lead's `instructions` added to its own and on the named model if one is given; or an agent
 * of the lead's `instructions` alone on a model `spawnModels` allows (its first, unless one
 * is named). Throws `unknown-definition`, `model-not-allowed` or `invalid-input`; the model is
 * not resolved here (the caller does, so a missing key is said before the roster changes).
 */
export function spawnedAgent(options: SpawnOptions, request: SpawnRequest, lead: string): Agent {
  const instructions = request.instructions?.trim() || undefined;
  if (instructions !== undefined && instructions.length > MAX_SPAWN_INSTRUCTIONS) {
    throw new TeamError(
      'invalid-input',
      `instructions hold at most ${MAX_SPAWN_INSTRUCTIONS} characters, not ${instructions.length}.`,
    );
  }
  const model = request.model === undefined ? undefined : allowedModel(options, request.model);
  if (request.definition !== undefined) {
    const entry = Object.hasOwn(options.catalog, request.definition)
      ? options.catalog[request.definition]
      : undefined;
    if (!entry) {
      throw new TeamError(
        'unknown-definition',
        `The team has no definition ${JSON.stringify(request.definition)}: ${definitionsText(options)}.`,
        { details: { definition: request.definition, known: Object.keys(options.catalog) } },
      );
    }
    const brief = instructions === undefined ? '' : `\n\nFrom ${lead}, as you join: ${instructions}`;
    return spawnedFrom(entry, {
      name: request.name,
      instructions: `${entry.instructions}${brief}`,
      model: model ?? entry.model,
    });
  }
  if (instructions === undefined) {
    throw new TeamError(
      'invalid-input',
      `Give the new member instructions (what it does), or a definition: ${definitionsText(options)}.`,
    );
  }
  const [first] = options.spawnModels;
  if (model === undefined && first === undefined) {
    throw new TeamError(
      'model-not-allowed',
      `This team allows no model for a member of free instructions (spawnModels): spawn a definition instead; ${definitionsText(options)}.`,
      { details: { allowed: [] } },
    );
  }
  return new Agent({ name: request.name, instructions, model: model ?? (first as ModelSpec) });
}

/**
 * The Agent a member that joined runs as, in any process that loads its team: its catalog
 * entry under its name (tools, limits and governance as defined), or an agent of its recorded
 * instructions; its model the entry's, or the allowed one of its name, or the `provider/model`
 * the join recorded, which the provider registry resolves when its turn runs.
 */
export function joinedAgent(options: SpawnOptions, joined: JoinedMember): Agent {
  const { name, instructions, description, model: recorded } = joined;
  const allowed = options.spawnModels.find((spec) => specName(spec) === recorded);
  const entry =
    joined.definition !== undefined && Object.hasOwn(options.catalog, joined.definition)
      ? options.catalog[joined.definition]
      : undefined;
  if (entry) {
    const model = specName(entry.model) === recorded ? entry.model : (allowed ?? recorded);
    return spawnedFrom(entry, { name, instructions, model });
  }
  const permissionMode = joined.mode as PermissionMode;
  return new Agent({ name, instructions, description, model: allowed ?? recorded, permissionMode });
}
