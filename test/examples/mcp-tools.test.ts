import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Script, type ScriptedCall, type ScriptedReply, scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { runWithMcpTools } from '../../examples/mcp-tools.js';
import { createTask, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

// The example against a real MCP server (test/examples/fixtures/tide-mcp-server.ts, written
// with @modelcontextprotocol/sdk) in a child process, over stdio, through the AI SDK's MCP client.

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/tide-mcp-server.ts', import.meta.url));

/** The MCP server's command, writing its pid to a file so the test can watch it end. */
function tideServer() {
  const pidFile = path.join(tempFolder('agent-teams-mcp-'), 'pid');
  return {
    server: {
      command: process.execPath,
      args: ['--import', 'tsx', fixture],
      cwd: root,
      env: { TIDES_PID_FILE: pidFile },
    },
    pid: () => Number(readFileSync(pidFile, 'utf8')),
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits for the process to be gone; the test's timeout bounds the wait. */
async function ended(pid: number) {
  while (alive(pid)) await sleep(20);
  return true;
}

/** The text of an MCP tool's answer, however the SDK hands it to the model. */
function mcpText(output: unknown): string {
  const parts = Array.isArray(output) ? output : ((output as { content?: unknown[] })?.content ?? []);
  return parts.map((part) => (part as { text?: string }).text ?? '').join('');
}

/** The lead: one task for the pilot, then an answer saying whether the table's times reached it. */
const harbourmaster = (call: ScriptedCall): ScriptedReply =>
  call.reason === 'start' && call.step === 0
    ? { toolCalls: [createTask({ title: 'High water in Lisbon', assignee: 'pilot' })] }
    : call.reason === 'synthesis'
      ? `Answer: ${call.prompt.includes('high water 06:12') ? 'from the table' : 'none'}`
      : 'Planned.';

test('a member calls a tool of an MCP server, its answer lands in the task result, and the server ends with the run', async () => {
  const script: Script = (call) =>
    call.agent !== 'pilot'
      ? harbourmaster(call)
      : call.step === 0
        ? { toolCalls: [tool('tide_times', { port: 'Lisbon' })] }
        : call.step === 1
          ? {
              toolCalls: [
                tool('update_task', {
                  taskId: call.taskId,
                  status: 'completed',
                  result: mcpText(call.toolResults[0]?.output),
                }),
              ],
            }
          : 'Done.';
  const model = scriptedModel(script);
  const { server, pid } = tideServer();
  const result = await runWithMcpTools({ input: 'When is high water in Lisbon?', server, model });
  expect(result.teamResult.tasks).toMatchObject([
    {
      title: 'High water in Lisbon',
      status: 'completed',
      owner: 'pilot',
      result: 'Lisbon: high water 06:12 and 18:40, low water 00:05 and 12:27',
    },
  ]);
  expect(result.output).toBe('Answer: from the table');
  // The pilot has the server's tool beside its team tools; the lead has none of the server's.
  const pilot = model.calls.find((call) => call.agent === 'pilot');
  expect(pilot?.tools).toEqual(expect.arrayContaining(['tide_times', 'update_task']));
  expect(model.calls.find((call) => call.agent === 'harbourmaster')?.tools).not.toContain('tide_times');
  expect(await ended(pid())).toBe(true);
}, 60_000);

test('a run that fails still closes the client, and the server ends', async () => {
  const model = scriptedModel((call) => {
    if (call.agent === 'pilot') throw new Error('the pilot’s model is down');
    return harbourmaster(call);
  });
  const { server, pid } = tideServer();
  await expect(
    runWithMcpTools({ input: 'When is high water in Lisbon?', server, model }),
  ).rejects.toMatchObject({
    code: 'agent-failed',
  });
  expect(await ended(pid())).toBe(true);
}, 60_000);
