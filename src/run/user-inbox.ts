import { USER } from '../agent/participants.js';
import type { TeamMessage } from '../mailbox/message.js';
import type { TeamStore } from '../store/team-store.js';

// Apart from the controls: the inspection commands read the person's inbox without loading
// what checking a control's options takes.

/**
 * The person reads their inbox (`user`): every message in it, oldest first, as it was before
 * this read; the unread ones are marked read (so messages to the person never fill it while
 * they look, in the command or the Studio).
 */
export function readUserInbox(store: TeamStore, team: string): Promise<readonly TeamMessage[]> {
  return store.transact(team, ({ mailbox }) => {
    const all = mailbox.messages(USER);
    mailbox.markRead(
      USER,
      all.filter((message) => message.readAt === null).map((message) => message.id),
    );
    return all;
  });
}
