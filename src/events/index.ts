export { type Clock, systemClock } from './clock.js';
export { TeamEmitter, type TeamEventHandler } from './team-emitter.js';
export type {
  AgentRole,
  GrantTool,
  MemberStatus,
  ReportedOutcome,
  RequestKind,
  StopReason,
  SynthesisPart,
  TaskCounts,
  TeamEvent,
  TeamEventDraft,
  TeamEventMap,
  TeamEventSink,
  TeamEventType,
  TurnReason,
} from './team-event-map.js';
