import { randomUUID } from 'node:crypto';
import { checkActor, checkRoster, type TeamRoster, USER } from '../agent/participants.js';
import { recorderOf } from '../board/change-recorder.js';
import { TeamError } from '../errors/index.js';
import { LIMITS } from '../events/limits.js';
import type { TeamEventSink } from '../events/team-event-map.js';
import type { InMemoryMessageBus } from './in-memory-message-bus.js';
import {
  type IdleReason,
  MESSAGE_KINDS,
  type MessageKind,
  type SentMessage,
  type TeamMessage,
} from './message.js';
import { departedError, recipientsOf } from './recipients.js';

const MAX_MESSAGE_LENGTH = LIMITS.message;
/** Read messages kept per inbox for inspection; unread ones are always kept. */
const READ_HISTORY = LIMITS.readKept;

/** What a mailbox is made for: the team's roster. */
export interface MailboxConfig {
  /** The lead's name. */
  lead: string;
  /** The members' names. */
  members: readonly string[];
  /**
   * Members that shut down or were removed: their inboxes stay readable (the archive), but a
   * message to them is refused (`member-shutdown`), never dropped. Default none.
   */
  departed?: readonly string[];
}

/** How a mailbox is made, besides its roster. */
export interface MailboxOptions {
  /** The clock messages are stamped with. Default: the system clock. */
  now?: () => Date;
  /** Makes message ids. Default: random UUIDs, unique across processes. */
  newId?: () => string;
}

/** What `send` takes besides the sender, recipient and content. */
export interface SendOptions {
  /** Marks a reply the harness sent for an agent; see `TeamMessage.automatic`. */
  automatic?: boolean;
  /** What the message is. Default `text`. */
  kind?: MessageKind;
  /** Why the member went idle, on an `idle_notification`. */
  idleReason?: IdleReason;
  /**
   * Which effect of a turn this is (its run, agent, turn and the call's place in it): sent
   * again by a replay of that turn after a crash, the message already delivered is answered
   * and nothing is sent twice.
   */
  effect?: string;
}

/**
 * The team's mailboxes and their rules, synchronous over a message bus. Delivery is at
 * least once: a message stays unread until its reader takes it.
 *
 * @example
 * const mailbox = new TeamMailbox(new InMemoryMessageBus({ enabled: true }), undefined,
 *   { lead: 'editor', members: ['researcher', 'writer'] });
 * mailbox.send('researcher', 'writer', 'Notes are in task-1');
 * mailbox.take('writer'); // [{ from: 'researcher', fromAgent: true, content: 'Notes are in task-1', ... }]
 */
export class TeamMailbox {
  readonly #bus: InMemoryMessageBus;
  readonly #events: TeamEventSink | undefined;
  readonly #roster: TeamRoster;
  readonly #departed: ReadonlySet<string>;
  readonly #now: () => Date;
  readonly #newId: () => string;

  constructor(
    bus: InMemoryMessageBus,
    events: TeamEventSink | undefined,
    config: MailboxConfig,
    options: MailboxOptions = {},
  ) {
    if (typeof config !== 'object' || config === null) {
      throw new TeamError('invalid-input', 'A mailbox needs a config with the team lead and members.');
    }
    this.#bus = bus;
    this.#events = events;
    this.#roster = checkRoster(config);
    this.#departed = checkDeparted(this.#roster, config.departed);
    this.#now = options.now ?? (() => new Date());
    this.#newId = options.newId ?? (() => `msg-${randomUUID()}`);
  }

  /** The lead and the members whose inboxes it holds. */
  get roster(): TeamRoster {
    return this.#roster;
  }

  /** The message a turn's effect was sent as, from the readers' inboxes, if it was sent. */
  #sentAs(inboxes: readonly string[], effect: string): SentMessage | undefined {
    for (const reader of inboxes) {
      const found = this.#bus.inbox(reader).find((message) => message.effect === effect);
      if (!found) continue;
      const { readAt: _, fromAgent: __, to: ___, ...sent } = found;
      return Object.freeze({ ...sent, to: Object.freeze([...inboxes]) });
    }
    return undefined;
  }

  /**
   * Sends `content` from `from` to a member, `lead`, `everyone` or `user`. `from` is an agent
   * of the team, or `USER` for the person running the team (`fromAgent: false`; `everyone`
   * then reaches every agent). An agent's message to `user` goes to the person's inbox, which
   * wakes no agent; `everyone` never includes the person.
   * Checks: `from` is on the team or `user`; the recipient exists and is not the sender
   * (`unknown-recipient`); the content is a non-empty string of bounded size; every inbox it
   * reaches has room for another unread message (`inbox-full`).
   * Changes: appends one copy to each inbox it reaches, unread.
   * Events: `team:message-sent` with the inboxes reached.
   */
  send(from: string, to: string, content: string, options: SendOptions = {}): SentMessage {
    const fromAgent = from !== USER;
    if (fromAgent) checkActor(this.#roster, from);
    if (this.#departed.has(from)) throw departedError(from, 'send');
    const kind = options.kind ?? 'text';
    if (!MESSAGE_KINDS.includes(kind)) {
      throw new TeamError(
        'invalid-input',
        `A message kind is one of ${MESSAGE_KINDS.join(', ')}, not ${String(kind)}.`,
      );
    }
    const { inboxes, broadcast } = recipientsOf(this.#roster, from, to, this.#departed);
    if (typeof content !== 'string' || content.trim().length === 0) {
      throw new TeamError('invalid-input', 'A message needs some content.');
    }
    if (content.length > MAX_MESSAGE_LENGTH) {
      throw new TeamError(
        'invalid-input',
        `A message holds at most ${MAX_MESSAGE_LENGTH} characters; shorten it.`,
      );
    }
    const done = options.effect === undefined ? undefined : this.#sentAs(inboxes, options.effect);
    if (done) return done;
    const full = inboxes.find((reader) => !this.hasRoom(reader));
    if (full) {
      throw new TeamError(
        'inbox-full',
        `The inbox of ${full} holds ${LIMITS.unreadPerInbox} unread messages, its most: wait until ${full} has read them.`,
        { details: { agent: full } },
      );
    }
    const sent: SentMessage = Object.freeze({
      id: this.#newId(),
      from,
      to: Object.freeze(inboxes),
      content,
      sentAt: this.#now().toISOString(),
      broadcast,
      automatic: options.automatic === true,
      kind,
      ...(options.idleReason ? { idleReason: options.idleReason } : {}),
      ...(options.effect ? { effect: options.effect } : {}),
    });
    for (const reader of inboxes) {
      const copy: TeamMessage = Object.freeze({ ...sent, to: reader, fromAgent, readAt: null });
      this.#replace(reader, [...this.#bus.inbox(reader), copy]);
    }
    const { id, to: reached, broadcast: toEveryone, automatic } = sent;
    this.#events?.emit({
      type: 'team:message-sent',
      data: {
        id,
        from,
        to: reached,
        broadcast: toEveryone,
        content,
        automatic,
        kind,
        idleReason: sent.idleReason,
      },
    });
    return sent;
  }

  /** Whether `agent`'s inbox can take another unread message. */
  hasRoom(agent: string): boolean {
    let unread = 0;
    for (const message of this.#bus.inbox(agent)) if (message.readAt === null) unread++;
    return unread < LIMITS.unreadPerInbox;
  }

  /** The unread messages of `agent`, oldest first, marked read. */
  take(agent: string): TeamMessage[] {
    const unread = this.unread(agent);
    if (unread.length > 0)
      this.markRead(
        agent,
        unread.map((message) => message.id),
      );
    return unread;
  }

  /** The unread messages of `agent`, oldest first, left unread. */
  unread(agent: string): TeamMessage[] {
    checkReader(this.#roster, agent);
    return this.#bus.inbox(agent).filter((message) => message.readAt === null);
  }

  /** Whether `agent` has an unread message. */
  hasUnread(agent: string): boolean {
    checkReader(this.#roster, agent);
    return this.#bus.inbox(agent).some((message) => message.readAt === null);
  }

  /** Every message in `agent`'s inbox, read or not, oldest first. */
  messages(agent: string): readonly TeamMessage[] {
    checkReader(this.#roster, agent);
    return this.#bus.inbox(agent);
  }

  /**
   * Marks messages read once they are handled: a reader that takes them only after its turn
   * succeeds gets at-least-once delivery across crashes. Unknown ids are ignored.
   * Keeps the newest `READ_HISTORY` read messages; drops older read ones.
   */
  markRead(agent: string, ids: readonly string[]): void {
    checkReader(this.#roster, agent);
    const wanted = new Set(ids);
    const readAt = this.#now().toISOString();
    const inbox = this.#bus.inbox(agent);
    if (!inbox.some((message) => message.readAt === null && wanted.has(message.id))) return;
    const next = inbox.map((message) =>
      message.readAt === null && wanted.has(message.id) ? Object.freeze({ ...message, readAt }) : message,
    );
    let excess = next.filter((message) => message.readAt !== null).length - READ_HISTORY;
    this.#replace(
      agent,
      next.filter((message) => message.readAt === null || excess-- <= 0),
    );
  }

  #replace(agent: string, messages: readonly TeamMessage[]): void {
    recorderOf(this)?.before(`inbox:${agent}`, this.#bus.inbox(agent));
    this.#bus.replaceInbox(agent, messages);
  }
}

/** Throws `unknown-agent` unless `name` has an inbox: an agent of the team, or the person (`user`). */
function checkReader(roster: TeamRoster, name: string): void {
  if (name !== USER) checkActor(roster, name);
}

/** The departed members, checked: each a member of the roster. */
function checkDeparted(roster: TeamRoster, departed: unknown): ReadonlySet<string> {
  if (departed === undefined) return new Set();
  if (!Array.isArray(departed))
    throw new TeamError('invalid-input', 'departed must be a list of member names.');
  for (const name of departed) checkActor(roster, String(name));
  return new Set(departed as string[]);
}
