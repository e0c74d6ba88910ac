import { TeamError } from '../errors/index.js';
import { EVERYONE, LEAD_ALIAS, type TeamRoster } from '../state/roster.js';

/**
 * The inboxes a message to `to` reaches: a member, the lead (by name or as `lead`), or
 * `everyone` (every agent but the sender). An unknown recipient is an error, never a
 * silent success.
 */
export function recipientsOf(
  roster: TeamRoster,
  from: string,
  to: unknown,
): { inboxes: string[]; broadcast: boolean } {
  const agents = [roster.lead, ...roster.members];
  if (to === EVERYONE) return { inboxes: agents.filter((agent) => agent !== from), broadcast: true };
  const name = to === LEAD_ALIAS ? roster.lead : to;
  if (typeof name !== 'string' || !agents.includes(name)) {
    const others = agents.filter((agent) => agent !== from && agent !== roster.lead);
    throw new TeamError(
      'unknown-recipient',
      `There is no agent ${JSON.stringify(to)} on the team: send to ${[...others, LEAD_ALIAS, EVERYONE].join(', ')}.`,
      { details: { to } },
    );
  }
  if (name === from) {
    throw new TeamError('unknown-recipient', 'You cannot send a message to yourself.', { details: { to } });
  }
  return { inboxes: [name], broadcast: false };
}
