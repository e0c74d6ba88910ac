import { tool } from 'ai';
import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import { answer, type TeamToolContext } from './tool-context.js';
import { toolInputSchema } from './tool-input.js';

const respondFields = z.strictObject({
  approve: z.boolean().describe('true: shut down when this turn ends; false: keep working (give a reason)'),
  reason: z.string().optional().describe('Why; required to reject, ≤2000 characters'),
});
const respondInput = toolInputSchema(respondFields);
const MAX_REASON = 2_000;

/**
 * A member's answer to a graceful shutdown request, offered only in a turn of a member that
 * was asked. Approving (or ending the turn without rejecting) shuts it down as the turn ends;
 * rejecting needs a reason, which goes to the lead (`shutdown_response`) and the log.
 */
export function respondToShutdownTool(context: TeamToolContext, agent: string) {
  return tool({
    description:
      'Answer the request to shut down: approve (you stop when this turn ends) or reject with a reason. Not answering approves.',
    inputSchema: respondInput,
    execute: (input) =>
      answer(
        context,
        { tool: 'respond_to_shutdown', agent, schema: respondFields, input },
        ({ approve, reason }, { mailbox, emit }) => {
          const why = reason?.trim() ?? '';
          if (!approve && !why)
            throw new TeamError('invalid-input', 'Say why you reject the shutdown: give a reason.');
          if (why.length > MAX_REASON) {
            throw new TeamError('invalid-input', `A reason holds at most ${MAX_REASON} characters.`);
          }
          const lead = mailbox.roster.lead;
          const content = approve
            ? `${agent} approves its shutdown${why ? `: ${why}` : '.'}`
            : `${agent} rejects its shutdown: ${why}`;
          if (mailbox.hasRoom(lead))
            mailbox.send(agent, lead, content, { kind: 'shutdown_response', automatic: true });
          if (!approve) emit({ type: 'team:shutdown-rejected', data: { member: agent, reason: why } });
          return { approved: approve };
        },
      ),
  });
}
