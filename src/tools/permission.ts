import { matchesGlob } from '../requests/glob.js';
import { latestRequest } from '../requests/request-queries.js';
import type { RequestsView } from '../requests/request-state.js';
import { askedAnswer, openRequest, type TurnGovernance } from './open-request.js';

export type FileChangeTool = 'write_file' | 'edit_file';
type Refusal = { readonly success: false; readonly error: string };

/** What the grants and earlier requests say, before a classifier or a new request: allowed, refused, or ask. */
type Standing =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'refused'; readonly refusal: Refusal }
  | { readonly kind: 'ask' };

function standing(context: TurnGovernance, view: RequestsView, tool: FileChangeTool, file: string): Standing {
  const { agent, settings, approvedCall } = context;
  // The approved call the harness runs as asked: allowed this once.
  if (approvedCall?.kind === 'permission' && approvedCall.tool === tool && approvedCall.path === file)
    return { kind: 'allowed' };
  const covers = (granted: string, pattern: string) =>
    (granted === '*' || granted === tool) && matchesGlob(file, pattern);
  if (view.grants.some((grant) => grant.member === agent.name && covers(grant.tool, grant.pattern)))
    return { kind: 'allowed' };
  if (settings.allowedPaths.some((allowed) => covers(allowed.tool, allowed.path))) return { kind: 'allowed' };
  const prior = latestRequest(
    view,
    agent.name,
    'permission',
    (request) => request.tool === tool && request.path === file,
  );
  if (prior?.status === 'open') {
    return {
      kind: 'refused',
      refusal: { success: false, error: `You asked for this already (${prior.id}); wait for the answer.` },
    };
  }
  if (prior && prior.approve === false) {
    const how = prior.status === 'expired' ? 'nobody answered in time' : `by ${prior.by}`;
    const error = `Permission to ${tool} ${file} was denied (${how})${prior.feedback ? `: ${prior.feedback}` : '.'}`;
    return { kind: 'refused', refusal: { success: false, error } };
  }
  return { kind: 'ask' };
}

/**
 * Whether the turn's agent may change `file` with `tool` (called with `input`): `undefined`
 * when it may, else the tool's refusal. In order: `bypass` allows all; the approved call the
 * harness is running; the agent's own grants (the lead's `grant_paths`, and permissions
 * approved with `always`); the team's `allowedPaths`; a denial stands (until a grant lifts
 * it); a classifier decides when it answers; else it asks (the person, or the lead in
 * `delegatedByTeamLead` mode), keeping the call's input, and the turn ends. Once approved,
 * the harness makes that call, once, at the agent's next turn. Grants and requests are read
 * from the store, so the answer is the same whichever process runs the turn.
 */
export async function checkPermission(
  context: TurnGovernance,
  tool: FileChangeTool,
  file: string,
  input: unknown,
): Promise<Refusal | undefined> {
  const { agent, turn } = context;
  const { permissionMode, classifier } = agent.governance;
  if (permissionMode === 'bypass') return undefined;
  const found = await context.store.transact(context.team, ({ requests }) =>
    standing(context, requests.view(), tool, file),
  );
  if (found.kind === 'allowed') return undefined;
  if (found.kind === 'refused') return found.refusal;
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
    input: JSON.stringify(input) ?? null,
  });
  return askedAnswer(asked, `${tool} on ${file}`);
}
