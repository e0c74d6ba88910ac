import type { GrantTool } from '../events/team-event-map.js';

/** A path (glob, relative to the workspace root) every member may change with `tool` without asking. */
export interface AllowedPath {
  /** A glob, relative to the workspace root. */
  path: string;
  /** The file tool (or both, `*`) it allows. */
  tool: GrantTool;
  /** Why it is allowed (shown to nobody but the reader of the team file). */
  reason?: string;
}

/** The options with their defaults, checked. */
export interface GovernanceSettings {
  /** The workspace root, absolute and with its links resolved; `null` without a workspace. */
  readonly workspaceRoot: string | null;
  readonly allowedPaths: readonly AllowedPath[];
  readonly planApprovalTimeoutMs: number;
  readonly permissionTimeoutMs: number;
  readonly questionTimeoutMs: number;
}

export const GRANT_TOOLS: readonly GrantTool[] = ['write_file', 'edit_file', '*'];
