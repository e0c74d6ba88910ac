export type { TeamTelemetry } from '../telemetry/run-tracing.js';
export type { GovernanceConfig, PermissionsOptions, WorkspaceOptions } from './governance-options.js';
export { type RunOptions, Team } from './team.js';
export type { TeamConfig } from './team-options.js';
