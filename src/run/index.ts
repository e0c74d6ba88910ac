export { TeamRunHandle } from './handle.js';
export type { ShutdownOptions } from './shutdown.js';
