import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  fakeOpenAIServer,
  type Script,
  type ScriptedCall,
  type ScriptedReply,
  scriptedModel,
} from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { runWithMcpTools } from '../../examples/mcp-tools.js';
import { createTask, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

// The example against a real MCP server (test/examples/fixtures/tide-mcp-server.ts, written
// with @modelcontextprotocol/sdk) in a child process, over stdio, through the AI SDK's MCP client.

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/tide-mcp-server.ts', import.meta.url));
const example = fileURLToPath(new URL('../../examples/mcp-tools.ts', import.meta.url));
const execFileAsync = promisify(execFile);

/** The MCP server's command, writing its pid to a file so the test can watch it end. */
function tideServer() {
  const pidFile = path.join(tempFolder('agent-teams-mcp-'), 'pid');
  return {
    server: {
      command: process.execPath,
      args: ['--import', 'tsx', fixture, pidFile],
      cwd: root,
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
  if (typeof output === 'string') return output;
  const parts = Array.isArray(output) ? output : ((output as { content?: unknown[] })?.content ?? []);
  return parts.map((part) => (part as { text?: string }).text ?? '').join('');
}

/** The lead: one task for the pilot, then an answer from the first high water its briefing shows. */
const harbourmaster = (call: ScriptedCall): ScriptedReply =>
  call.reason === 'start' && call.step === 0
    ? { toolCalls: [createTask({ title: 'High water in Lisbon', assignee: 'pilot' })] }
    : call.reason === 'synthesis'
      ? `Answer: ${call.prompt.match(/high water \d\d:\d\d/)?.[0] ?? 'none'}`
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
  expect(result.output).toBe('Answer: high water 06:12');
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

test('as a script, it runs the team on a model string against an MCP server started from its command line', async () => {
  // The model is openai/… on the fake server: the member's MCP answer travels the Responses API too.
  const script: Script = (call) =>
    call.agent !== 'pilot'
      ? harbourmaster(call)
      : call.step === 0
        ? { toolCalls: [tool('tide_times', { port: 'Porto' })] }
        : mcpText(call.toolResults[0]?.output);
  const model = await fakeOpenAIServer(script);
  const { server, pid } = tideServer();
  try {
    const run = (args: string[]) =>
      execFileAsync(process.execPath, ['--import', 'tsx', example, ...args], {
        cwd: root,
        env: {
          ...process.env,
          AGENT_TEAMS_MODEL: 'openai/gpt-4.1',
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: 'sk-fake',
        },
      });
    const { stdout } = await run(['When is high water in Porto?', '--', server.command, ...server.args]);
    expect(stdout.trim()).toBe('Answer: high water 05:58');
    const pilot = model.calls.filter((call) => call.agent === 'pilot');
    expect(mcpText(pilot[1]?.toolResults[0]?.output)).toBe(
      'Porto: high water 05:58 and 18:21, low water 11:49 and 23:59',
    );
    expect(await ended(pid())).toBe(true);
    await expect(run(['no command'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'Usage: npx tsx examples/mcp-tools.ts "<question>" -- <mcp server command>',
      ),
    });
  } finally {
    await model.close();
  }
}, 60_000);
