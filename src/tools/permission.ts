import { matchesGlob } from '../requests/glob.js';
import type { RequestRecord } from '../requests/request-state.js';
import { askedAnswer, openRequest, type TurnGovernance } from './open-request.js';

export type FileChangeTool = 'write_file' | 'edit_file';
type Refusal = { readonly success: false; readonly error: string };

/** The agent's latest permission request for this tool on this path. */
function latestRequest(
  context: TurnGovernance,
  tool: FileChangeTool,
  file: string,
): RequestRecord | undefined {
  let latest: RequestRecord | undefined;
  for (const request of context.run().governance.requests.values()) {
    const same = request.kind === 'permission' && request.tool === tool && request.path === file;
    if (same && request.from === context.agent.name) latest = request;
  }
  return latest;
}

/**
 * Whether the turn's agent may change `file` with `tool`: `undefined` when it may, else the
 * tool's refusal. In order: `bypass` allows all; the agent's own grants (the lead's
 * `grant_paths`, and permissions approved before); the team's `allowedPaths`; a denial
 * stands (until a grant lifts it); a classifier decides when it answers; else it asks (the
 * person, or the lead in `delegatedByTeamLead` mode) and the turn ends.
 */
export async function checkPermission(
  context: TurnGovernance,
  tool: FileChangeTool,
  file: string,
): Promise<Refusal | undefined> {
  const { agent, settings, turn } = context;
  const { permissionMode, classifier } = agent.governance;
  if (permissionMode === 'bypass') return undefined;
  const covers = (granted: string, pattern: string) =>
    (granted === '*' || granted === tool) && matchesGlob(file, pattern);
  const grants = context.run().governance.grants;
  if (grants.some((grant) => grant.member === agent.name && covers(grant.tool, grant.pattern)))
    return undefined;
  if (settings.allowedPaths.some((allowed) => covers(allowed.tool, allowed.path))) return undefined;
  const prior = latestRequest(context, tool, file);
  if (prior?.status === 'open')
    return { success: false, error: `You asked for this already (${prior.id}); wait for the answer.` };
  if (prior && prior.approve === false) {
    const how = prior.status === 'expired' ? 'nobody answered in time' : `by ${prior.by}`;
    return {
      success: false,
      error: `Permission to ${tool} ${file} was denied (${how})${prior.feedback ? `: ${prior.feedback}` : '.'}`,
    };
  }
  if (permissionMode === 'classifier' && classifier) {
    let verdict: boolean | undefined;
    try {
      verdict = await classifier({ agent: agent.name, tool, path: file, taskId: turn.taskId });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { success: false, error: `The permission classifier of ${agent.name} failed: ${reason}` };
    }
    if (verdict === true) return undefined;
    if (verdict === false)
      return { success: false, error: `Permission to ${tool} ${file} was denied by the classifier.` };
  }
  const asked = await openRequest(context, {
    kind: 'permission',
    to: permissionMode === 'delegatedByTeamLead' ? 'lead' : 'user',
    subject: `${agent.name} asks to ${tool} ${file}`,
    taskId: turn.taskId,
    tool,
    path: file,
  });
  return askedAnswer(asked, `${tool} on ${file}`);
}
