import { FileStore, MemoryStore, type TeamStore } from 'agent-teams';
import { tempFolder } from './temp-folder.js';

/** The stores every lifecycle rule is run on: in memory, and in files. */
export const STORES: readonly [string, () => TeamStore][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore({ root: tempFolder('agent-teams-life-') })],
];
