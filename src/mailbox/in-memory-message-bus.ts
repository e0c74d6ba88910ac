import { TeamError } from '../errors/index.js';
import type { TeamMessage } from './message.js';

/** What `new InMemoryMessageBus` takes. */
export interface MessageBusConfig {
  /** A disabled bus refuses every read and write. */
  enabled: boolean;
}

/**
 * The inboxes of a team, held in memory: each agent's messages, oldest first. The mailbox
 * rules read and replace whole inboxes; the bus only holds them.
 */
export class InMemoryMessageBus {
  readonly #enabled: boolean;
  readonly #inboxes = new Map<string, readonly TeamMessage[]>();

  constructor(config: MessageBusConfig = { enabled: true }) {
    this.#enabled = config.enabled;
  }

  /** The messages in `agent`'s inbox, oldest first. */
  inbox(agent: string): readonly TeamMessage[] {
    this.#check();
    return this.#inboxes.get(agent) ?? [];
  }

  /** Puts `messages` in `agent`'s inbox, in place of what it held. */
  replaceInbox(agent: string, messages: readonly TeamMessage[]): void {
    this.#check();
    this.#inboxes.set(agent, messages);
  }

  /** Every agent with an inbox (empty ones included once written). */
  agents(): string[] {
    this.#check();
    return [...this.#inboxes.keys()];
  }

  #check(): void {
    if (!this.#enabled) {
      throw new TeamError(
        'disabled',
        'This message bus is disabled: create it with { enabled: true } to use it.',
      );
    }
  }
}
