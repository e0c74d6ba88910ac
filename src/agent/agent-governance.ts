import { TeamError } from '../errors/index.js';

/**
 * How a member's file tools decide on a change outside the paths it was allowed:
 * `default` asks the person, `delegatedByTeamLead` asks the lead (who may grant paths with
 * `grant_paths`), `bypass` allows every change in the workspace, `classifier` asks the
 * agent's `classifier` and only when it answers `undefined` asks the person.
 */
export type PermissionMode = 'default' | 'bypass' | 'delegatedByTeamLead' | 'classifier';

/** What a classifier is asked: one file tool call that no grant covers. */
export interface PermissionQuestion {
  readonly agent: string;
  readonly tool: 'write_file' | 'edit_file';
  /** The path, relative to the workspace root. */
  readonly path: string;
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

export interface AgentGovernance {
  readonly requirePlanApproval: boolean;
  readonly permissionMode: PermissionMode;
  readonly classifier: PermissionClassifier | undefined;
}

const MODES: readonly PermissionMode[] = ['default', 'bypass', 'delegatedByTeamLead', 'classifier'];

/** Checks an agent's governance options; a classifier without its mode (or the reverse) is refused. */
export function agentGovernance(agent: string, config: AgentGovernanceConfig): AgentGovernance {
  const { requirePlanApproval = false, permissionMode = 'default', classifier } = config;
  if (typeof requirePlanApproval !== 'boolean') {
    throw new TeamError('invalid-input', `requirePlanApproval of ${agent} must be true or false.`);
  }
  if (!MODES.includes(permissionMode)) {
    throw new TeamError(
      'invalid-input',
      `permissionMode of ${agent} must be one of ${MODES.map((mode) => `"${mode}"`).join(', ')}.`,
    );
  }
  if (classifier !== undefined && typeof classifier !== 'function') {
    throw new TeamError('invalid-input', `The classifier of ${agent} must be a function.`);
  }
  if (permissionMode === 'classifier' && !classifier) {
    throw new TeamError('invalid-input', `${agent} has permissionMode "classifier" but no classifier.`);
  }
  if (classifier && permissionMode !== 'classifier') {
    throw new TeamError(
      'invalid-input',
      `${agent} has a classifier, which only permissionMode "classifier" uses; set that mode or leave it out.`,
    );
  }
  return { requirePlanApproval, permissionMode, classifier };
}
