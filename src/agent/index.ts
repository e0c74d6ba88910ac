export { Agent, type AgentConfig, type AgentMetadata } from './agent.js';
export type {
  AgentGovernanceConfig,
  PermissionClassifier,
  PermissionMode,
  PermissionQuestion,
} from './agent-governance.js';
export type { ModelSettings } from './model-settings.js';
export { type TeamRoster, USER } from './participants.js';
export { type ModelSpec, resolveModel } from './resolve-model.js';
export { DEFAULT_PRICES, type ModelPrice, type TokenUsage } from './usage.js';
