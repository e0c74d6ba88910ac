import { tool } from 'ai';
import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { uncountedCost } from '../agent/budget.js';
import { resolveModel } from '../agent/resolve-model.js';
import {
  type FormationSettings,
  MAX_SPAWN_INSTRUCTIONS,
  profileOf,
  spawnedAgent,
} from '../agent/team-formation.js';
import type { ModelPrice } from '../agent/usage.js';
import { TeamError } from '../errors/index.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { checkSystemPrompt } from '../prompt/prompt-room.js';
import { askToDepart } from '../roster/departure-request.js';
import type { TeamStore } from '../store/team-store.js';
import { governed } from './tool-answer.js';
import { toolInputSchema } from './tool-input.js';

/** What the lead's tools that form the team act on: its turn, its team's store and definition. */
export interface FormationContext {
  readonly store: TeamStore;
  readonly team: string;
  readonly turn: TurnDescriptor;
  readonly lead: Agent;
  /** The team's own members (a spawned member's system prompt names them). */
  readonly members: readonly Agent[];
  readonly formation: FormationSettings;
  readonly promptBudgetTokens: number;
  /** The team's `pricing`: under a budget in USD, a spawned member's model must have a price. */
  readonly pricing: Readonly<Record<string, ModelPrice>>;
}

const spawnFields = z.strictObject({
  name: z.string().describe('Its name: ≤64 of A-Z a-z 0-9 . _ -, one no agent of this run has had'),
  definition: z
    .string()
    .optional()
    .describe(
      'A definition your instructions list to start; leave out for a member of your own instructions',
    ),
  instructions: z
    .string()
    .optional()
    .describe(
      `What it does: required without a definition, added to a definition's own; ≤${MAX_SPAWN_INSTRUCTIONS} characters`,
    ),
  model: z
    .string()
    .optional()
    .describe("provider/model, one your instructions list; default: the definition's, or the first listed"),
});
const retireFields = z.strictObject({
  name: z.string().describe('The member to let go'),
});
const spawnInput = toolInputSchema(spawnFields);
const retireInput = toolInputSchema(retireFields);

/**
 * `model-not-allowed` when a budget in USD would count the new member's cost (the run's, or
 * the member's own) and its model has no price: the same rule as for the team's agents at start.
 */
function requirePriced(context: FormationContext, agent: Agent, modelId: string): void {
  const counted = context.turn.context?.countsCost === true || agent.budget?.maxCostUsd !== undefined;
  const unpriced = counted ? uncountedCost(modelId, context.pricing) : undefined;
  if (unpriced === undefined) return;
  throw new TeamError(
    'model-not-allowed',
    `A budget in USD counts ${agent.name}'s cost, and it could not be counted: ${unpriced}. Spawn it on a priced model.`,
    { details: { model: modelId, agent: agent.name } },
  );
}

/**
 * The lead starts a new member: a definition of the team's catalog, or one of its own
 * instructions on an allowed model. Checked before anything changes: the definition, the
 * model (allowed, resolvable here: a missing key is said, and priced under a budget in USD), the member's system prompt
 * within the prompt budget; then, in one commit, its name and the team's `maxMembers`
 * (`team:member-joined`, with its definition and `by`). It takes tasks like any member.
 */
export function spawnMemberTool(context: FormationContext) {
  return tool({
    description: `Add a member to your team now (at most ${context.formation.maxMembers} members at once). It takes tasks like the others: assign it one.`,
    inputSchema: spawnInput,
    execute: (input) =>
      governed('spawn_member', spawnFields, input, async (request) => {
        const { store, team, lead, formation } = context;
        const agent = spawnedAgent(formation, request, lead.name);
        requirePriced(context, agent, resolveModel(agent.model).modelId);
        checkSystemPrompt({ name: team, lead, members: context.members }, agent, context.promptBudgetTokens);
        const profile = profileOf(agent);
        const { definition } = request;
        await store.transact(team, ({ roster }) =>
          roster.join(agent.name, profile, {
            instructions: agent.instructions,
            by: lead.name,
            ...(definition === undefined ? {} : { definition }),
          }),
        );
        return {
          member: agent.name,
          ...(definition === undefined ? {} : { definition }),
          model: profile.model,
        };
      }),
  });
}

/**
 * The lead lets a member go, gracefully: the member is asked (a `shutdown_request` from the
 * lead), finishes its step and shuts down as its next turn ends unless it rejects with a
 * reason; its unfinished tasks go back to the list. The same path as `run.shutdown`.
 */
export function retireMemberTool(context: FormationContext) {
  return tool({
    description:
      'Let a member go: it finishes its current step, then shuts down (it may object, with a reason); its unfinished tasks go back to the list.',
    inputSchema: retireInput,
    execute: (input) =>
      governed('retire_member', retireFields, input, async ({ name }) => {
        const { store, team, lead } = context;
        const ask = { force: false, reason: null, removed: false, by: lead.name };
        const asked = await store.transact(team, (rules) => askToDepart(rules, name, ask));
        return asked
          ? { member: name, asked: true }
          : { member: name, asked: false, note: `${name} was asked to shut down already.` };
      }),
  });
}
