export { FileStore, type FileStoreOptions } from './file-store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export type {
  ReadEventsOptions,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
} from './team-store.js';
