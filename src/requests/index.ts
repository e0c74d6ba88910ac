export type { RequestRecord } from './request-state.js';
export type { RequestAnswer, TeamRequests } from './team-requests.js';
