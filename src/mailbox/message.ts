import type { MessageKind, TeamMessage } from '../events/message.js';

export * from '../events/message.js';

/** A stored message as it reads today: one written before kinds existed is `text`. */
export function withKind(message: Omit<TeamMessage, 'kind'> & { kind?: MessageKind }): TeamMessage {
  return message.kind ? (message as TeamMessage) : { ...message, kind: 'text' };
}
