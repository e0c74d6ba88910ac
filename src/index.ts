/**
 * agent-teams: a lead and its members on a shared, dependency-aware task list with mailboxes.
 * @module
 */
export * from './agent/index.js';
export * from './board/index.js';
export * from './errors/index.js';
export * from './events/index.js';
export * from './governance/index.js';
export * from './mailbox/index.js';
export { type BlackboardConfig, InMemoryBlackboard } from './state/in-memory-blackboard.js';
export { InMemoryMessageBus, type MessageBusConfig } from './state/in-memory-message-bus.js';
export type { TeamRoster } from './state/roster.js';
export * from './store/index.js';
export * from './team/index.js';
