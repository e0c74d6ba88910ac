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

/** The latest request of the agent for exactly this call, as the store has it. */
function priorRequest(
  context: TurnGovernance,
  name: string,
  subject: string,
): Promise<RequestRecord | undefined> {
  const kept = requestSubject(subject);
  return context.store.transact(context.team, ({ requests }) =>
    latestRequest(
      requests.view(),
      context.agent.name,
      'tool',
      (request) => request.tool === name && request.subject === kept,
    ),
  );
}

/**
 * An agent's own tools marked `needsApproval` (the AI SDK's flag, a boolean or a function of
 * the input) go through a `tool` request to the person instead of the SDK's own approval
 * step: the call is asked for, the turn ends, and the next turn may make it once approved.
 * An approval covers that exact call (same input) for the rest of the run; a rejection or
 * expiry refuses it again with the answer's feedback (a changed input asks anew).
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
        const prior = await priorRequest(context, name, subject);
        if (prior?.approve === true) return execute(input as never, options);
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
        });
        return askedAnswer(asked, `The call of ${name}`);
      },
    } as ToolSet[string];
  }
  return gated;
}
