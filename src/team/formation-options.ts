import { z } from 'zod';
import { Agent, isModelSpec } from '../agent/agent.js';
import { type ModelSpec, specName } from '../agent/resolve-model.js';
import type { FormationSettings } from '../agent/team-formation.js';
import { badOption } from '../errors/check-options.js';
import { checkName } from '../errors/names.js';
import { satisfying, wholeNumber } from '../errors/options-schema.js';
import { isTeamError } from '../errors/team-error.js';

/** How a team forms itself as it runs, as `new Team` takes it. */
export interface FormationConfig {
  /**
   * Agents the lead may start during a run (`spawn_member { definition }`), by definition
   * name; none is started until then. A spawned member is the entry under the name the lead
   * gives it. Default: none.
   */
  catalog?: Readonly<Record<string, Agent>>;
  /**
   * Members on the team at once, fixed and spawned (or added) together, the lead not counted:
   * a spawn or join past it is refused. At least the number of `members`. Default 10, or the
   * number of members when that is more.
   */
  maxMembers?: number;
  /**
   * Models the lead may name (as `provider/model`) for a member it spawns: for one of free
   * instructions (the first is its default), or in place of a definition's own. A string is
   * resolved by the provider registry when the member is spawned; an AI SDK model goes by its
   * `provider/modelId`. Default: none (members of free instructions are refused).
   */
  spawnModels?: readonly ModelSpec[];
  /**
   * The lead only coordinates: it gets the team's coordination tools (tasks, messages,
   * requests, spawning and retiring, `team_status`) and none of its own. Default `false`.
   */
  delegate?: boolean;
}

/** The default bound on members at once, when the team's own members are fewer. */
const DEFAULT_MAX_MEMBERS = 10;

const anAgent = satisfying<Agent>((agent) => agent instanceof Agent, 'an Agent');

/** The schemas of the team's formation options (the names and models inside are checked after). */
export const FORMATION_SHAPE = {
  catalog: z.record(z.string(), anAgent, { error: 'an object of Agents by definition name' }).optional(),
  maxMembers: wholeNumber(1).optional(),
  spawnModels: z
    .array(satisfying<ModelSpec>(isModelSpec, 'an AI SDK language model or a "provider/model" string'))
    .optional(),
  delegate: z.boolean().optional(),
} satisfies Record<keyof FormationConfig, z.ZodType>;

/**
 * The team's formation from its options as `FORMATION_SHAPE` checked them: definition names
 * are agent names, each model names a known provider, no model is allowed twice, and
 * `maxMembers` leaves room for the team's own members. `what` names the team.
 */
export function formationSettings(
  config: FormationConfig,
  memberCount: number,
  what: string,
): FormationSettings {
  const catalog = { ...config.catalog };
  for (const [definition, entry] of Object.entries(catalog)) {
    checkName('agent', definition);
    modelNameOf(entry.model, ['catalog', definition, 'model'], what);
  }
  const spawnModels = [...(config.spawnModels ?? [])];
  const names = spawnModels.map((spec, index) => modelNameOf(spec, ['spawnModels', index], what));
  const twice = names.findIndex((name, index) => names.indexOf(name) !== index);
  if (twice >= 0) {
    throw badOption(what, ['spawnModels', twice], 'a model not listed already', names[twice]);
  }
  const maxMembers = config.maxMembers ?? Math.max(DEFAULT_MAX_MEMBERS, memberCount);
  if (maxMembers < memberCount) {
    throw badOption(what, ['maxMembers'], `at least ${memberCount}, the number of its members`, maxMembers);
  }
  return { catalog, spawnModels, maxMembers, delegate: config.delegate ?? false };
}

/** A model's `provider/model`; a string with an unknown provider is an `invalid-option` at `path`. */
function modelNameOf(spec: ModelSpec, path: (string | number)[], what: string): string {
  try {
    return specName(spec);
  } catch (error) {
    if (!isTeamError(error, 'unknown-provider')) throw error;
    throw badOption(what, path, 'a "provider/model" string of a known provider, or an AI SDK model', spec);
  }
}
