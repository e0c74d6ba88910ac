import type { ToolSet } from 'ai';
import { cutTo, LIMITS } from '../events/limits.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { TurnGovernance } from '../tools/open-request.js';

/** What a tool answered, as JSON a briefing can show (a thrown error as the tool's failure). */
async function callOnce(tools: ToolSet, request: RequestRecord, governance: TurnGovernance): Promise<string> {
  const tool = request.tool === null ? undefined : tools[request.tool];
  if (!tool?.execute)
    return JSON.stringify({ success: false, error: `${request.tool} is not one of your tools now.` });
  governance.approvedCall = request;
  try {
    const input: unknown = JSON.parse(request.input ?? 'null');
    const output: unknown = await tool.execute(input as never, {
      toolCallId: `approved-${request.id}`,
      messages: [],
    });
    return JSON.stringify(output) ?? 'null';
  } catch (error) {
    return JSON.stringify({ success: false, error: error instanceof Error ? error.message : String(error) });
  } finally {
    governance.approvedCall = null;
  }
}

/**
 * Makes the agent's approved calls as they were asked (the same tool and input), each once,
 * before its turn's first model call, and answers what the turn's briefing adds: each call's
 * result. Each is committed as made (`team:approved-call-ran`, with the turn), so no later turn
 * makes it again, and a replay of this turn after a crash reads its answer instead; a crash
 * between the call and its commit makes it once more.
 */
export async function makeApprovedCalls(
  governance: TurnGovernance,
  tools: ToolSet,
  calls: readonly RequestRecord[],
): Promise<string | null> {
  const lines: string[] = [];
  const { turn } = governance.turn;
  for (const request of calls) {
    // Made already at the start of this turn, which a crash cut: its answer, not the call again.
    if (request.ran) {
      lines.push(`- ${request.id}: ${request.tool} answered ${request.ran.output}`);
      continue;
    }
    const output = cutTo(await callOnce(tools, request, governance), LIMITS.message, null);
    const made = await governance.store.transact(governance.team, ({ requests }) =>
      requests.ran(request.id, output, turn),
    );
    if (made) lines.push(`- ${request.id}: ${request.tool} answered ${output}`);
  }
  if (lines.length === 0) return null;
  return `Your approved calls, made for you as you asked them (do not make them again):\n${lines.join('\n')}`;
}
