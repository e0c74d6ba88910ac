export type { PostgresStoreOptions } from './options.js';
export { PostgresStore } from './postgres-store.js';
