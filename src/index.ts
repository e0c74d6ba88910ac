/**
 * agent-teams: a lead and its members on a shared, dependency-aware task list with mailboxes.
 * @module
 */
export * from './agent/index.js';
export * from './board/index.js';
export * from './errors/index.js';
export * from './events/index.js';
export * from './fold/index.js';
export * from './mailbox/index.js';
export * from './requests/index.js';
export * from './run/index.js';
export * from './store/index.js';
export * from './team/index.js';
export * from './tools/index.js';
export * from './turn/index.js';
