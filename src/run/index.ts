export type { ShutdownOptions } from './control.js';
export { type RunEventsOptions, TeamRunHandle } from './handle.js';
