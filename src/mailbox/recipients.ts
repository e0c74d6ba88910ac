import { EVERYONE, LEAD_ALIAS, type TeamRoster, USER } from '../agent/participants.js';
import { TeamError } from '../errors/index.js';

/**
 * The inboxes a message to `to` reaches: a member, the lead (by name or as `lead`),
 * `everyone` (every agent but the sender; not the person), or `user` (the person running the
 * team, whose inbox wakes no agent). An unknown recipient is an error, never a silent success.
 */
export function recipientsOf(
  roster: TeamRoster,
  from: string,
  to: unknown,
  departed: ReadonlySet<string> = new Set(),
): { inboxes: string[]; broadcast: boolean } {
  const agents = [roster.lead, ...roster.members];
  if (to === EVERYONE) {
    const inboxes = agents.filter((agent) => agent !== from && !departed.has(agent));
    return { inboxes, broadcast: true };
  }
  const name = to === LEAD_ALIAS ? roster.lead : to;
  if (name === USER) {
    if (from === USER) throw toYourself(to);
    return { inboxes: [USER], broadcast: false };
  }
  if (typeof name !== 'string' || !agents.includes(name)) {
    const others = agents.filter((agent) => agent !== from && agent !== roster.lead && !departed.has(agent));
    const named = [...others, LEAD_ALIAS, EVERYONE, ...(from === USER ? [] : [USER])];
    throw new TeamError(
      'unknown-recipient',
      `There is no agent ${JSON.stringify(to)} on the team: send to ${named.join(', ')}.`,
      { details: { to } },
    );
  }
  if (departed.has(name)) throw departedError(name, 'receive');
  if (name === from) throw toYourself(to);
  return { inboxes: [name], broadcast: false };
}

function toYourself(to: unknown): TeamError {
  return new TeamError('unknown-recipient', 'You cannot send a message to yourself.', { details: { to } });
}

/** A member that shut down or left neither reads nor sends: say so, never drop the message. */
export function departedError(member: string, doing: 'send' | 'receive'): TeamError {
  const what =
    doing === 'send'
      ? `${member} has shut down or left the team: it sends no more messages.`
      : `${member} has shut down or left the team: it reads no more messages. Send to another member or to the lead.`;
  return new TeamError('member-shutdown', what, { details: { agent: member } });
}
