export type { TeamRosterRules } from '../roster/team-roster-rules.js';
export { FileStore, type FileStoreOptions } from './file/file-store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
export type { RunListing, RunRecord, RunStatus } from './run-record.js';
export type {
  MemberProfile,
  ReadEventsOptions,
  ResumedRun,
  RosterEntry,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
  TransactOptions,
} from './team-store.js';
