export type {
  AgentGovernanceConfig,
  PermissionClassifier,
  PermissionMode,
  PermissionQuestion,
} from './agent-governance.js';
export type { RequestAnswer } from './answer-request.js';
export type {
  AllowedPath,
  GovernanceConfig,
  PermissionsOptions,
  WorkspaceOptions,
} from './governance-options.js';
export type { RequestRecord } from './request-state.js';
