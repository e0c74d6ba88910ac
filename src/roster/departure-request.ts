import { USER } from '../agent/participants.js';
import { TeamError } from '../errors/team-error.js';
import type { TeamEventDraft } from '../events/team-event-map.js';
import type { TeamMailbox } from '../mailbox/team-mailbox.js';
import type { TeamRosterRules } from './team-roster-rules.js';

/** What asking a member to depart needs of a team's rules, lent for one transaction. */
interface DepartureRules {
  readonly roster: TeamRosterRules;
  readonly mailbox: TeamMailbox;
  emit(event: TeamEventDraft): void;
}

/** How a member is asked to depart, and by whom: the person (`user`), or the lead. */
export interface DepartureAsk {
  readonly force: boolean;
  readonly reason: string | null;
  /** It also leaves the team (`run.removeMember`). */
  readonly removed: boolean;
  readonly by: string;
}

/** Throws unless `member` is a member of the team still on it (`not-a-member`, `member-shutdown`); answers its name. */
export function requireActiveMember(roster: TeamRosterRules, member: unknown): string {
  const entries = roster.entries();
  const entry = typeof member === 'string' ? entries.find((each) => each.name === member) : undefined;
  if (entry?.role !== 'member') {
    const members = entries.filter((each) => each.role === 'member').map((each) => each.name);
    throw new TeamError(
      'not-a-member',
      `${JSON.stringify(member)} is not a member of the run; its members are ${members.join(', ')}.`,
      { details: { agent: member } },
    );
  }
  if (entry.status !== 'active') {
    throw new TeamError('member-shutdown', `${entry.name} has shut down or left the team already.`, {
      details: { agent: entry.name },
    });
  }
  return entry.name;
}

/**
 * Asks a member to depart: the one path of `run.shutdown`, `run.removeMember`, the command's
 * and the Studio's, and the lead's `retire_member`. Graceful: the member is sent a
 * `shutdown_request` from the asker, which wakes it; it answers in its next turn (not
 * rejecting approves) and departs as that turn ends; asked already (the request unread), it
 * is not asked twice. `force` (or a removal): its running turn is cut and it departs when the
 * run folds `team:shutdown-requested`. Checks: an active member. Answers whether it asked now.
 */
export function askToDepart(rules: DepartureRules, member: unknown, ask: DepartureAsk): boolean {
  const name = requireActiveMember(rules.roster, member);
  const { force, reason, removed, by } = ask;
  const asker = by === USER ? {} : { by };
  if (force || removed) {
    rules.emit({
      type: 'team:shutdown-requested',
      data: { member: name, force: true, reason, messageId: null, removed, ...asker },
    });
    return true;
  }
  const asked = rules.mailbox.unread(name).some((message) => message.kind === 'shutdown_request');
  if (asked) return false;
  const who = by === USER ? 'The person running the team' : `${by}, the lead,`;
  const text = `${who} asks you to shut down${reason ? `: ${reason}` : '.'} Finish your step, then approve or reject with respond_to_shutdown (not rejecting approves).`;
  const sent = rules.mailbox.send(by, name, text, { kind: 'shutdown_request' });
  rules.emit({
    type: 'team:shutdown-requested',
    data: { member: name, force: false, reason, messageId: sent.id, ...asker },
  });
  return true;
}
