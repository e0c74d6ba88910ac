import type { ToolSet } from 'ai';
import type { AgentRole } from '../events/team-event-map.js';
import type { TurnGovernance } from './open-request.js';
import { submitPlanTool } from './plan-tools.js';
import { answerRequestTool, grantPathsTool } from './request-tools.js';
import { approvalGated } from './tool-approval.js';
import { workspaceTools } from './workspace-tools.js';

/** The tools a member may use while its plan waits to be approved: none of them changes anything. */
const PLAN_PHASE_TOOLS = ['list_tasks', 'get_task', 'read_inbox', 'read_file', 'list_files'];

function pick(tools: ToolSet, names: readonly string[]): ToolSet {
  return Object.fromEntries(Object.entries(tools).filter(([name]) => names.includes(name)));
}

/**
 * A turn's tools with governance applied: the lead gets `answer_request` while a request to
 * it is open (and `grant_paths` with a workspace); members get the workspace's file tools; a member whose task needs an
 * approved plan gets only `submit_plan` and tools that change nothing; an agent's own tools
 * marked `needsApproval` ask the person first. `teamTools` already holds the role's team tools.
 */
export function governTools(
  context: TurnGovernance,
  role: AgentRole,
  teamTools: ToolSet,
  own: ToolSet,
  requests: { readonly leadAsked: boolean; readonly planPhase: boolean },
): ToolSet {
  const { settings, agent } = context;
  const workspace = settings.workspaceRoot !== null;
  if (role === 'lead') {
    // Offered only when there is something to answer: every tool is words in every call.
    const asked = requests.leadAsked;
    return {
      ...teamTools,
      ...(asked ? { answer_request: answerRequestTool(context) } : {}),
      ...(workspace ? { grant_paths: grantPathsTool(context) } : {}),
      ...approvalGated(context, own),
    };
  }
  const files = workspace ? workspaceTools(context) : {};
  if (requests.planPhase) {
    return { ...pick({ ...teamTools, ...files }, PLAN_PHASE_TOOLS), submit_plan: submitPlanTool(context) };
  }
  // Tasks reach a member that plans first only through a turn (which starts with the plan):
  // claiming one mid-turn would skip it.
  const team = agent.governance.requirePlanApproval
    ? Object.fromEntries(Object.entries(teamTools).filter(([name]) => name !== 'claim_task'))
    : teamTools;
  return { ...team, ...files, ...approvalGated(context, own) };
}
