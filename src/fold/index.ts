export { applyEvent, foldEvents } from './apply-event.js';
export type { GovernanceState } from './governance-fold.js';
export type { AgentResult, MemberSummary, RunUsage, TeamResult, TeamRunResult } from './run-result.js';
export { type AgentRunState, emptyRunState, type MessageRecord, type RunState } from './run-state.js';
