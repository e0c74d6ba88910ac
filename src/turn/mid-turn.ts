import { NEW_MESSAGES_HEADER } from '../events/given-mid-turn.js';
import { renderMessages } from '../mailbox/render.js';
import { countTokens, cutToTokens } from '../prompt/tokens.js';
import type { TeamStore } from '../store/team-store.js';

/** What a turn gives its agent between steps, and how it is told. */
export interface MidTurnContext {
  readonly store: TeamStore;
  readonly team: string;
  readonly agent: string;
  /** The messages the turn was given or read: each is given once, and read when the turn ends. */
  readonly seen: Set<string>;
  /** The tokens what is given at once may take; the rest waits for the next step or `read_inbox`. */
  readonly room: number;
}

/**
 * The messages that reached the agent since its turn began (or since the last step) and it was
 * not given yet, rendered for the model as new, as many as fit in `room`: marked seen, so the
 * turn's end counts them read. `null` when nothing new came.
 */
export async function newMessages(
  context: MidTurnContext,
): Promise<{ readonly text: string; readonly ids: readonly string[] } | null> {
  const { store, team, agent, seen, room } = context;
  const unread = await store.transact(team, ({ mailbox }) =>
    mailbox.hasUnread(agent) ? mailbox.unread(agent).filter((message) => !seen.has(message.id)) : [],
  );
  if (unread.length === 0) return null;
  const given = [];
  // A text has no more tokens than UTF-8 bytes: when the bytes fit, so do the tokens, and the
  // tokenizer (~70 MB once loaded) is not needed for the usual few short messages.
  const bytes = (text: string) => Buffer.byteLength(text);
  const fitsAsBytes =
    unread.reduce((sum, message) => sum + bytes(message.content) + 40, bytes(NEW_MESSAGES_HEADER)) <= room;
  const count = fitsAsBytes ? bytes : countTokens;
  let used = count(NEW_MESSAGES_HEADER);
  for (const message of unread) {
    const size = count(message.content) + 40;
    // The first is given even when too long alone: its text is cut to the room.
    if (given.length > 0 && used + size > room) break;
    given.push(message);
    used += size;
  }
  for (const message of given) seen.add(message.id);
  const text = cutToTokens(
    `${NEW_MESSAGES_HEADER}\n\n${renderMessages(given)}`,
    room,
    'read_inbox gives the rest',
  );
  return { text, ids: given.map((message) => message.id) };
}
