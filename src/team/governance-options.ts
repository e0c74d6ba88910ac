import { statSync } from 'node:fs';
import path from 'node:path';
import type { Agent } from '../agent/agent.js';
import { checkKnownKeys, shown } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import type { GrantTool } from '../events/team-event-map.js';
import { checkPattern } from '../requests/glob.js';
import { type AllowedPath, type GovernanceSettings, GRANT_TOOLS } from '../tools/governance-settings.js';

/** A folder the members' file tools work in; no path leaves it. */
export interface WorkspaceOptions {
  root: string;
}

export interface PermissionsOptions {
  allowedPaths?: readonly AllowedPath[];
}

/** The team's governance options, as `new Team` takes them. */
export interface GovernanceConfig {
  /** Gives members `read_file`, `write_file`, `edit_file` and `list_files` inside `root`. */
  workspace?: WorkspaceOptions;
  /** Paths members may change without asking. Needs `workspace`. */
  permissions?: PermissionsOptions;
  /** How long a plan waits for an answer; with none, the member goes ahead. Default 120,000. */
  planApprovalTimeoutMs?: number;
  /** How long a permission or tool request waits for an answer; with none it is denied. Default 120,000. */
  permissionTimeoutMs?: number;
}

function timeout(name: string, value: unknown): number {
  const chosen = value ?? 120_000;
  if (!Number.isInteger(chosen) || (chosen as number) < 1) {
    throw new TeamError('invalid-input', `${name} must be a whole number of ms of at least 1.`);
  }
  return chosen as number;
}

function workspaceRoot(workspace: unknown): string | null {
  if (workspace === undefined) return null;
  if (typeof workspace !== 'object' || workspace === null) {
    throw new TeamError('invalid-input', 'workspace must be an object: { root }.');
  }
  checkKnownKeys('workspace', workspace, ['root']);
  const { root } = workspace as { root?: unknown };
  if (typeof root !== 'string' || !root) {
    throw new TeamError('invalid-input', 'workspace.root must be the path of a folder.');
  }
  const absolute = path.resolve(root);
  if (!statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new TeamError('invalid-input', `workspace.root ${shown(root)} is not an existing folder.`);
  }
  return absolute;
}

function allowedPaths(permissions: unknown): AllowedPath[] {
  if (permissions === undefined) return [];
  if (typeof permissions !== 'object' || permissions === null) {
    throw new TeamError('invalid-input', 'permissions must be an object: { allowedPaths }.');
  }
  checkKnownKeys('permissions', permissions, ['allowedPaths']);
  const list = (permissions as { allowedPaths?: unknown }).allowedPaths ?? [];
  if (!Array.isArray(list)) throw new TeamError('invalid-input', 'permissions.allowedPaths must be a list.');
  return list.map((entry: unknown, index) => {
    const what = `permissions.allowedPaths[${index}]`;
    if (typeof entry !== 'object' || entry === null) {
      throw new TeamError('invalid-input', `${what} must be { path, tool, reason? }.`);
    }
    checkKnownKeys(what, entry, ['path', 'tool', 'reason']);
    const { path: pattern, tool, reason } = entry as Record<string, unknown>;
    checkPattern(what, pattern);
    if (!GRANT_TOOLS.includes(tool as GrantTool)) {
      throw new TeamError('invalid-input', `${what}.tool must be one of ${GRANT_TOOLS.join(', ')}.`);
    }
    if (reason !== undefined && typeof reason !== 'string') {
      throw new TeamError('invalid-input', `${what}.reason must be a string.`);
    }
    return { path: pattern as string, tool: tool as GrantTool, ...(reason === undefined ? {} : { reason }) };
  });
}

/**
 * Checks the team's governance options against its agents: permissions and an agent's
 * `permissionMode` only mean something with a workspace, so without one they are refused.
 */
export function governanceSettings(config: GovernanceConfig, agents: readonly Agent[]): GovernanceSettings {
  const root = workspaceRoot(config.workspace);
  const allowed = allowedPaths(config.permissions);
  if (root === null && config.permissions !== undefined) {
    throw new TeamError('invalid-input', 'permissions need a workspace: give the team workspace: { root }.');
  }
  const moded = agents.find((agent) => agent.governance.permissionMode !== 'default');
  if (root === null && moded) {
    throw new TeamError(
      'invalid-input',
      `permissionMode of ${moded.name} needs a workspace: give the team workspace: { root }.`,
    );
  }
  return {
    workspaceRoot: root,
    allowedPaths: allowed,
    planApprovalTimeoutMs: timeout('planApprovalTimeoutMs', config.planApprovalTimeoutMs),
    permissionTimeoutMs: timeout('permissionTimeoutMs', config.permissionTimeoutMs),
  };
}

export type { GovernanceSettings };
