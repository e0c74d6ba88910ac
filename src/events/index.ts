export { TeamEmitter, type TeamEventHandler } from './team-emitter.js';
export type {
  AgentRole,
  MemberStatus,
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
