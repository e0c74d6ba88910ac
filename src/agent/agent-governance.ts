import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import { fn } from '../errors/options-schema.js';

/**
 * How a member's file tools decide on a change outside the paths it was allowed:
 * `default` asks the person, `delegatedByTeamLead` asks the lead (who may grant paths with
 * `grant_paths`), `bypass` allows every change in the workspace, `classifier` asks the
 * agent's `classifier` and only when it answers `undefined` asks the person.
 */
export type PermissionMode = 'default' | 'bypass' | 'delegatedByTeamLead' | 'classifier';

/** What a classifier is asked: one file tool call that no grant covers. */
export interface PermissionQuestion {
  /** The agent that would change the file. */
  readonly agent: string;
  /** The file tool it called. */
  readonly tool: 'write_file' | 'edit_file';
  /** The path, relative to the workspace root. */
  readonly path: string;
  /** The task it is working on; `null` when none. */
  readonly taskId: string | null;
}

/** `true` allows, `false` denies, `undefined` asks the person. */
export type PermissionClassifier = (
  question: PermissionQuestion,
) => boolean | undefined | Promise<boolean | undefined>;

/** The governance options of an agent, as `new Agent` takes them. */
export interface AgentGovernanceConfig {
  /** For each task it first submits a plan (`submit_plan`) and works only once it is approved. Default `false`. */
  requirePlanApproval?: boolean;
  /** How its file tools decide outside its allowed paths (see `PermissionMode`). Default `default`. */
  permissionMode?: PermissionMode;
  /** Decides its permission requests in `classifier` mode. */
  classifier?: PermissionClassifier;
}

/**
 * An agent's governance settings, with their defaults applied.
 * @inline
 */
export interface AgentGovernance {
  /** Whether its plans wait for the lead's approval before it works on them. */
  readonly requirePlanApproval: boolean;
  /** How its file tools decide outside its allowed paths. */
  readonly permissionMode: PermissionMode;
  /** Decides its permission requests in `classifier` mode; `undefined` when none. */
  readonly classifier: PermissionClassifier | undefined;
}

const MODES = [
  'default',
  'bypass',
  'delegatedByTeamLead',
  'classifier',
] as const satisfies readonly PermissionMode[];

/** The schemas of an agent's governance options. */
export const AGENT_GOVERNANCE_SHAPE = {
  requirePlanApproval: z.boolean().optional(),
  permissionMode: z.enum(MODES).optional(),
  classifier: fn<PermissionClassifier>('a function deciding a permission request').optional(),
} satisfies Record<keyof AgentGovernanceConfig, z.ZodType>;

/**
 * An agent's governance, from its options as `AGENT_GOVERNANCE_SHAPE` checked them: a
 * classifier without its mode (or the reverse) is refused, as one of them is a mistake.
 */
export function agentGovernance(agent: string, config: AgentGovernanceConfig): AgentGovernance {
  const { requirePlanApproval = false, permissionMode = 'default', classifier } = config;
  if (permissionMode === 'classifier' && !classifier) {
    throw new TeamError(
      'invalid-option',
      `The agent ${agent} has permissionMode "classifier" but no classifier: give it one, or another mode.`,
      { details: { option: 'classifier' } },
    );
  }
  if (classifier && permissionMode !== 'classifier') {
    throw new TeamError(
      'invalid-option',
      `The agent ${agent} has a classifier, which only permissionMode "classifier" uses; set that mode or leave it out.`,
      { details: { option: 'classifier' } },
    );
  }
  return { requirePlanApproval, permissionMode, classifier };
}
