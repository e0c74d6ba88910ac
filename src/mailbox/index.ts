export { USER } from '../state/roster.js';
export type { SentMessage, TeamMessage } from './message.js';
export { APPROVAL_NOTICE, renderMessages } from './render.js';
export { type MailboxConfig, type MailboxOptions, type SendOptions, TeamMailbox } from './team-mailbox.js';
