export type { ShutdownOptions } from './control.js';
export { type RunEventsOptions, TeamRunHandle } from './handle.js';
export type { PersonTaskEdit } from './task-control.js';
