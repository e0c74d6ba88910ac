// `agent-teams/postgres`: a subpath of its own, so `pg` (an optional peer dependency) is
// loaded only by those who use PostgreSQL.
export type { PostgresStoreOptions } from './options.js';
export { PostgresStore } from './postgres-store.js';
