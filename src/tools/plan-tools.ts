import { tool } from 'ai';
import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import { openRequest, type TurnGovernance } from './open-request.js';
import { governed } from './tool-answer.js';
import { toolInputSchema } from './tool-input.js';

const PLAN_LENGTH = 20_000;
const submitPlanFields = z.strictObject({
  plan: z.string().describe(`How you will do the task, step by step; ≤${PLAN_LENGTH} characters`),
});
const submitPlanInput = toolInputSchema(submitPlanFields);

/** The subject of a plan request: the task it is for, then the plan. */
export function planSubject(taskId: string, plan: string): string {
  return `Plan for ${taskId}:\n${plan}`;
}

/**
 * A member that needs plan approval submits its plan for the task its turn holds: a `plan`
 * request to the lead. Its turn ends; it works on the task once the plan is approved.
 */
export function submitPlanTool(context: TurnGovernance) {
  return tool({
    description:
      'Submit your plan for your task to the lead. Your turn then ends; you start the work once it is approved.',
    inputSchema: submitPlanInput,
    execute: (input) =>
      governed('submit_plan', submitPlanFields, input, async ({ plan }) => {
        const taskId = context.turn.taskId;
        if (taskId === null) throw new TeamError('invalid-input', 'You hold no task to plan.');
        if (!plan.trim()) throw new TeamError('invalid-input', 'submit_plan: plan must not be empty.');
        if (plan.length > PLAN_LENGTH)
          throw new TeamError(
            'invalid-input',
            `submit_plan: plan is over ${PLAN_LENGTH} characters; shorten it.`,
          );
        if (context.opened.length > 0)
          throw new TeamError(
            'invalid-input',
            'You submitted a plan in this turn already; wait for the answer.',
          );
        const { id: requestId, to } = await openRequest(context, {
          kind: 'plan',
          to: 'lead',
          subject: planSubject(taskId, plan.trim()),
          taskId,
          tool: null,
          path: null,
        });
        return {
          requestId,
          note: `Your plan went to ${to === 'lead' ? 'the lead' : 'the user'}. Your turn ends here; you will be given the answer in your next turn.`,
        };
      }),
  });
}
