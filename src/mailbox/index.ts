export { InMemoryMessageBus, type MessageBusConfig } from './in-memory-message-bus.js';
export {
  type IdleReason,
  MESSAGE_KINDS,
  type MessageKind,
  MODEL_MESSAGE_KINDS,
  REQUEST_KINDS,
  type SentMessage,
  type TeamMessage,
} from './message.js';
export { APPROVAL_NOTICE, renderMessages } from './render.js';
export { type MailboxConfig, type MailboxOptions, type SendOptions, TeamMailbox } from './team-mailbox.js';
