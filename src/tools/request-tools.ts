import { tool } from 'ai';
import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import type { GrantTool } from '../events/team-event-map.js';
import { checkPattern } from '../requests/glob.js';
import { GRANT_TOOLS } from './governance-settings.js';
import type { TurnGovernance } from './open-request.js';
import { governed } from './tool-answer.js';
import { toolInputSchema } from './tool-input.js';

const answerRequestFields = z.strictObject({
  requestId: z.string().describe('Id of the request, as your briefing lists it (req-…)'),
  approve: z.boolean().describe('true to approve, false to reject'),
  feedback: z.string().optional().describe('What the asker reads with your answer: why, or what to change'),
  always: z
    .boolean()
    .optional()
    .describe(
      'With approve, for a permission or tool call: it stands for later calls too, not only this one',
    ),
});
const grantPathsFields = z.strictObject({
  member: z.string().describe('The member to allow'),
  paths: z
    .array(z.string())
    .describe('Globs relative to the workspace root: * within a folder, ** across folders (src/**)'),
  tool: z.enum(['write_file', 'edit_file', '*']).describe('The file tool allowed there, or * for both'),
});
const answerRequestInput = toolInputSchema(answerRequestFields);
const grantPathsInput = toolInputSchema(grantPathsFields);

/** The lead answers a plan, permission or tool request addressed to it. */
export function answerRequestTool(context: TurnGovernance) {
  return tool({
    description:
      'Answer a request a member sent you (a plan to approve, a permission): approve or reject, with feedback.',
    inputSchema: answerRequestInput,
    execute: (input) =>
      governed(
        'answer_request',
        answerRequestFields,
        input,
        async ({ requestId, approve, feedback = '', always = false }) => {
          const { turn, store, team } = context;
          await store.transact(team, ({ requests }) =>
            requests.answer(requestId, { approve, feedback, always }, turn.agent),
          );
          return { requestId, answered: approve ? 'approved' : 'rejected' };
        },
      ),
  });
}

/** The lead lets a member change files under some paths without asking. */
export function grantPathsTool(context: TurnGovernance) {
  return tool({
    description:
      'Let a member use write_file or edit_file on these paths without asking you; it asks only outside them.',
    inputSchema: grantPathsInput,
    execute: (input) =>
      governed('grant_paths', grantPathsFields, input, async ({ member, paths, tool: granted }) => {
        if (paths.length === 0 || paths.length > 50)
          throw new TeamError('invalid-input', 'Give 1 to 50 paths.');
        for (const pattern of paths) checkPattern('grant_paths', pattern);
        if (!GRANT_TOOLS.includes(granted as GrantTool))
          throw new TeamError('invalid-input', 'Unknown tool.');
        const { store, team, turn } = context;
        await store.transact(team, ({ requests }) =>
          requests.grant(member, paths, granted as GrantTool, turn.agent),
        );
        return { member, paths, tool: granted };
      }),
  });
}
