export type { RequestRecord } from './request-state.js';
export type { RequestAnswer } from './team-requests.js';
