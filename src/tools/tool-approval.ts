import type { ToolSet } from 'ai';
import { latestRequest } from '../requests/request-queries.js';
import type { RequestRecord } from '../requests/request-state.js';
import { requestSubject } from '../requests/team-requests.js';
import { askedAnswer, openRequest, type TurnGovernance } from './open-request.js';

/** What a tool request asks: the tool and its input, as the person reads them. */
function toolSubject(name: string, input: unknown): string {
  let shownInput: string;
  try {
    shownInput = JSON.stringify(input) ?? 'nothing';
  } catch {
    shownInput = String(input);
  }
  return `${name} ${shownInput}`;
}

/**
 * What the store says of this call: whether the agent holds a standing grant of the tool
 * (an approval with `always`), and its latest request for exactly this call.
 */
function standing(
  context: TurnGovernance,
  name: string,
  subject: string,
): Promise<{ granted: boolean; prior: RequestRecord | undefined }> {
  const kept = requestSubject(subject);
  const agent = context.agent.name;
  return context.store.transact(context.team, ({ requests }) => {
    const view = requests.view();
    const granted = view.toolGrants.some((grant) => grant.member === agent && grant.tool === name);
    const prior = latestRequest(
      view,
      agent,
      'tool',
      (request) => request.tool === name && request.subject === kept,
    );
    return { granted, prior };
  });
}

/**
 * An agent's own tools marked `needsApproval` (the AI SDK's flag, a boolean or a function of
 * the input) go through a `tool` request to the person instead of the SDK's own approval
 * step: the call is asked for (its input kept) and the turn ends. Once approved, the harness
 * runs exactly that call, once, at the start of the agent's next turn (`approvedCall`), and
 * the turn reads its result: the model never makes it again. The same call made later asks
 * again, unless the approval was `always` (a standing grant of the tool). A rejection or
 * expiry refuses the same call again with the answer's feedback (a changed input asks anew).
 */
export function approvalGated(context: TurnGovernance, tools: ToolSet): ToolSet {
  const gated: ToolSet = {};
  for (const [name, original] of Object.entries(tools)) {
    const { needsApproval, ...rest } = original;
    const execute = original.execute;
    if (!needsApproval || !execute) {
      gated[name] = original;
      continue;
    }
    gated[name] = {
      ...rest,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        const needs =
          typeof needsApproval === 'function'
            ? await needsApproval(input as never, {
                toolCallId: options.toolCallId,
                messages: options.messages,
              })
            : needsApproval;
        if (!needs) return execute(input as never, options);
        const subject = toolSubject(name, input);
        const approved = context.approvedCall;
        if (
          approved?.kind === 'tool' &&
          approved.tool === name &&
          approved.subject === requestSubject(subject)
        )
          return execute(input as never, options);
        const { granted, prior } = await standing(context, name, subject);
        if (granted) return execute(input as never, options);
        if (prior?.status === 'open') {
          return { success: false, error: `This call is waiting for an answer (${prior.id}).` };
        }
        if (prior && prior.approve === false) {
          const how = prior.status === 'expired' ? 'nobody answered in time' : `${prior.by} rejected it`;
          return {
            success: false,
            error: `${name} with this input was not approved (${how})${prior.feedback ? `: ${prior.feedback}` : '.'}`,
          };
        }
        const asked = await openRequest(context, {
          kind: 'tool',
          to: 'user',
          subject,
          taskId: context.turn.taskId,
          tool: name,
          path: null,
          input: JSON.stringify(input) ?? null,
        });
        return askedAnswer(asked, `The call of ${name}`);
      },
    } as ToolSet[string];
  }
  return gated;
}
