import { asSchema, type Schema, type Tool, type ToolSet } from 'ai';
import type { Agent } from '../agent/agent.js';
import { canSpawn, type FormationSettings } from '../agent/team-formation.js';
import type { ModelPrice } from '../agent/usage.js';
import type { Clock } from '../events/clock.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamStore } from '../store/team-store.js';
import { inCallOrder, roleTeamTools } from '../tools/create-team-tools.js';
import { retireMemberTool, spawnMemberTool } from '../tools/formation-tools.js';
import { governTools } from '../tools/govern-tools.js';
import type { GovernanceSettings } from '../tools/governance-settings.js';
import type { TeamHooks } from '../tools/hooks.js';
import type { TurnGovernance } from '../tools/open-request.js';
import { respondToShutdownTool } from '../tools/shutdown-tool.js';
import { teamStatusTool } from '../tools/team-status-tool.js';

/** What a turn's tools are bound to. */
export interface TurnToolsContext {
  readonly store: TeamStore;
  readonly team: string;
  readonly turn: TurnDescriptor;
  readonly agent: Agent;
  readonly role: 'lead' | 'member';
  /** The messages the turn was given or read: `read_inbox` gives the others. */
  readonly seen: Set<string>;
  readonly promptBudgetTokens: number;
  /** The team's `pricing` (a member the lead spawns under a budget in USD needs a price). */
  readonly pricing: Readonly<Record<string, ModelPrice>>;
  readonly governance: GovernanceSettings;
  readonly hooks: TeamHooks;
  /** Told when a hook throws inside a tool: the turn then fails with that error. */
  readonly onHookFailure: (error: unknown) => void;
  /** What the requests give the turn's tools, read with its briefing. */
  readonly requests: { readonly leadAsked: boolean; readonly planPhase: boolean };
  /** The team's lead and own members (a member the lead spawns is checked against them). */
  readonly lead: Agent;
  readonly members: readonly Agent[];
  /** What the lead may spawn, `maxMembers`, and whether the lead only coordinates. */
  readonly formation: FormationSettings;
  readonly maxTurnsPerMember: number;
  /** The run's clock (`team_status` says how long since each member's last activity on it). */
  readonly clock: Clock;
}

/**
 * The lead's tools over its team: `team_status`, and `spawn_member` and `retire_member` when
 * the team has a catalog or models for spawned members.
 */
function leadTools(context: TurnToolsContext): ToolSet {
  const { store, team, turn, formation, promptBudgetTokens } = context;
  const status = { team_status: teamStatusTool({ ...context, maxMembers: formation.maxMembers }) };
  if (!canSpawn(formation)) return status;
  const forming = {
    store,
    team,
    turn,
    lead: context.lead,
    members: context.members,
    formation,
    promptBudgetTokens,
    pricing: context.pricing,
  };
  return { spawn_member: spawnMemberTool(forming), retire_member: retireMemberTool(forming), ...status };
}

/**
 * A turn's tools: the team tools for its role (and the lead's over its team), in the order
 * the model calls them; `respond_to_shutdown` while a shutdown is asked of it; and the agent's
 * own (which take the names they share; none for a lead in delegate mode), governed (plan
 * phase, workspace, approvals; see src/governance). `governance.opened` lists what the turn asked.
 */
export function turnTools(context: TurnToolsContext): { tools: ToolSet; governance: TurnGovernance } {
  const { store, team, turn, agent, role, seen } = context;
  const hooks = { hooks: context.hooks, runId: turn.runId };
  // A replay of this turn (same run, agent and turn) counts its effects the same way.
  let effects = 0;
  const nextEffect = () => `${turn.runId}/${agent.name}/${turn.turn}/${++effects}`;
  const tools = { store, team, seen, promptBudgetTokens: context.promptBudgetTokens, hooks, nextEffect };
  const toolContext = { ...tools, onHookFailure: context.onHookFailure };
  const roleTools = roleTeamTools(toolContext, agent.name, role);
  // The lead's tools over its team join the team tools' call order (`spawn_member b`, then a task for b).
  const teamTools = role === 'lead' ? inCallOrder({ ...roleTools, ...leadTools(context) }) : roleTools;
  const asked = turn.context?.shutdownRequest;
  const shutdown: ToolSet = asked
    ? { respond_to_shutdown: respondToShutdownTool(toolContext, agent.name) }
    : {};
  const governance: TurnGovernance = {
    store,
    team,
    turn,
    agent,
    settings: context.governance,
    opened: [],
    approvedCall: null,
  };
  // Delegate mode holds the lead to coordination: none of its own tools.
  const own = role === 'lead' && context.formation.delegate ? {} : agent.tools;
  const governed = governTools(
    governance,
    role,
    { ...teamTools, ...shutdown },
    withSchemasOnce(own),
    context.requests,
  );
  return { tools: governed, governance };
}

/** Each input schema as the AI SDK's own, made once per schema: its JSON Schema is then worked out once. */
const converted = new WeakMap<object, Schema>();

/**
 * An agent's tools with their input schemas made into the AI SDK's `Schema` once: given as a
 * zod schema, the SDK would make it again (and turn it into JSON Schema again) at every model call.
 */
function withSchemasOnce(tools: ToolSet): ToolSet {
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const input: unknown = tool.inputSchema;
    if ((typeof input !== 'object' && typeof input !== 'function') || input === null) {
      out[name] = tool;
      continue;
    }
    let schema = converted.get(input);
    if (!schema) {
      schema = asSchema(tool.inputSchema);
      converted.set(input, schema);
    }
    out[name] = schema === input ? tool : ({ ...tool, inputSchema: schema } as Tool);
  }
  return out;
}
