import { statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { TeamError } from '../errors/index.js';
import { milliseconds } from '../errors/options-schema.js';
import { checkPattern } from '../requests/glob.js';
import { type AllowedPath, type GovernanceSettings, GRANT_TOOLS } from '../tools/governance-settings.js';

/** A folder the members' file tools work in; no path leaves it. */
/** The folder members work in with the file tools. */
export interface WorkspaceOptions {
  /** The folder; the file tools reach nothing outside it. */
  root: string;
}

/** What members may do without asking. */
export interface PermissionsOptions {
  /** Paths (globs, relative to the workspace root) a member may change with a file tool without asking. */
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
  /**
   * How long a member that asked a `question` (send_message kind) waits for the answer, its
   * task kept; with none it goes on, told that nobody answered. Default 120,000.
   */
  questionTimeoutMs?: number;
}

// A pattern as the grants' matching takes it; `checkPattern` is the rule.
const PATTERN = 'a path pattern relative to the workspace root, without "..", of at most 500 characters';
const isPattern = (pattern: string) => {
  try {
    checkPattern('', pattern);
    return true;
  } catch {
    return false;
  }
};

const isFolder = (root: string) =>
  statSync(path.resolve(root), { throwIfNoEntry: false })?.isDirectory() === true;

/** The schemas of the team's governance options. */
export const GOVERNANCE_SHAPE = {
  workspace: z
    .strictObject({
      root: z
        .string({ error: 'the path of an existing folder' })
        .min(1, { error: 'the path of an existing folder' })
        .refine(isFolder, { error: 'the path of an existing folder' }),
    } satisfies Record<keyof WorkspaceOptions, z.ZodType>)
    .optional(),
  permissions: z
    .strictObject({
      allowedPaths: z
        .array(
          z.strictObject({
            path: z.string({ error: PATTERN }).refine(isPattern, { error: PATTERN }),
            tool: z.enum(GRANT_TOOLS),
            reason: z.string().optional(),
          } satisfies Record<keyof AllowedPath, z.ZodType>),
        )
        .optional(),
    } satisfies Record<keyof PermissionsOptions, z.ZodType>)
    .optional(),
  planApprovalTimeoutMs: milliseconds().optional(),
  permissionTimeoutMs: milliseconds().optional(),
  questionTimeoutMs: milliseconds().optional(),
} satisfies Record<keyof GovernanceConfig, z.ZodType>;

/**
 * The team's governance, from its options as `GOVERNANCE_SHAPE` checked them, against its
 * agents: permissions and an agent's `permissionMode` only mean something with a workspace,
 * so without one they are refused.
 */
export function governanceSettings(config: GovernanceConfig, agents: readonly Agent[]): GovernanceSettings {
  const root = config.workspace ? path.resolve(config.workspace.root) : null;
  if (root === null && config.permissions !== undefined) {
    throw new TeamError(
      'invalid-option',
      'permissions need a workspace: give the team workspace: { root }.',
      {
        details: { option: 'permissions' },
      },
    );
  }
  const moded = agents.find((agent) => agent.governance.permissionMode !== 'default');
  if (root === null && moded) {
    throw new TeamError(
      'invalid-option',
      `permissionMode of ${moded.name} needs a workspace: give the team workspace: { root }.`,
      { details: { option: 'workspace', agent: moded.name } },
    );
  }
  return {
    workspaceRoot: root,
    allowedPaths: (config.permissions?.allowedPaths ?? []).map(({ path: pattern, tool, reason }) => ({
      path: pattern,
      tool,
      ...(reason === undefined ? {} : { reason }),
    })),
    planApprovalTimeoutMs: config.planApprovalTimeoutMs ?? 120_000,
    permissionTimeoutMs: config.permissionTimeoutMs ?? 120_000,
    questionTimeoutMs: config.questionTimeoutMs ?? 120_000,
  };
}

export type { GovernanceSettings };
