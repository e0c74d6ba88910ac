export type { ShutdownOptions } from './control.js';
export { TeamRunHandle } from './handle.js';
export type { PersonTaskEdit } from './task-control.js';
