// `agent-teams/postgres`: a subpath of its own, so `pg` and `pg-boss` (optional peer
// dependencies) are loaded only by those who use PostgreSQL.

export * from './store/postgres/index.js';
export * from './turn/workers/index.js';
