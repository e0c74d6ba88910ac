export { Agent, type AgentConfig, type AgentMetadata } from './agent.js';
export type { ModelSettings } from './model-settings.js';
export { type ModelSpec, resolveModel } from './resolve-model.js';
export { DEFAULT_PRICES, type ModelPrice, type TokenUsage } from './usage.js';
