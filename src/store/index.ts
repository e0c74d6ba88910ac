export { FileStore, type FileStoreOptions } from './file-store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export type { TeamRosterRules } from './roster-rules.js';
export type {
  MemberProfile,
  ReadEventsOptions,
  RosterEntry,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
} from './team-store.js';
