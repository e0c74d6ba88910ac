// `agent-teams/postgres`: a subpath of its own, so `pg` and `pg-boss` (optional peer
// dependencies) are loaded only by those who use PostgreSQL.

export type { TurnReport, TurnWorker, TurnWorkerOptions } from '../../turn/workers/turn-worker.js';
export { startTurnWorker } from '../../turn/workers/turn-worker.js';
export type { PostgresStoreOptions } from './options.js';
export { PostgresStore } from './postgres-store.js';
