export type { RequestRecord } from './request-state.js';
