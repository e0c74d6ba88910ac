export type { HookAnswer, HookContext, IdleMember, TeamHooks } from '../governance/hooks.js';
export { TeamRunHandle } from '../run/handle.js';
export {
  type AgentRunState,
  applyEvent,
  emptyRunState,
  foldEvents,
  type MessageRecord,
  type RunState,
} from '../run/run-state.js';
export type { ShutdownOptions } from '../run/shutdown.js';
export type { TeamTelemetry } from '../telemetry/run-tracing.js';
export type { TurnDescriptor } from '../turn/descriptor.js';
export type { HookRejection, TurnOutcome } from '../turn/turn-outcome.js';
export type { AgentResult, MemberSummary, RunUsage, TeamResult, TeamRunResult } from './run-result.js';
export { type RunOptions, Team } from './team.js';
export type { TeamConfig } from './team-options.js';
export { createTeamTools, teamToolsFor } from './tools/create-team-tools.js';
export type { TeamToolContext } from './tools/tool-context.js';
