export type { ShutdownOptions } from './control.js';
export { TeamRunHandle } from './handle.js';
