export { isTeamError, TeamError, type TeamErrorCode } from './team-error.js';
