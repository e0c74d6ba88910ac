export { createTeamTools, teamToolsFor } from './create-team-tools.js';
export type { AllowedPath } from './governance-settings.js';
export type { HookAnswer, HookContext, IdleMember, TeamHooks } from './hooks.js';
export type { TeamToolContext } from './tool-context.js';
