import path from 'node:path';
import { FileStore, type TeamEvent } from 'agent-teams';
import { tool as aiTool } from 'ai';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { LIMITS } from '../../src/events/limits.js';
import { cli } from '../helpers/cli.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const NOTE = 'x'.repeat(30_000);

// The lead gives "Report" to a; a's turn takes four steps: text and a call with a huge input,
// a call of a tool that does not exist, a call of its own tool that throws, and its reply.
const script = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? { toolCalls: [createTask({ title: 'Report', assignee: 'a' })] }
      : 'Final',
  a: (call) =>
    [
      { text: 'Reading the notes.', toolCalls: [tool('update_task', { taskId: 'task-1', note: NOTE })] },
      { toolCalls: [tool('no_such_tool')] },
      { toolCalls: [tool('explode', { why: 'test' })] },
      'The report.',
    ][call.step] ?? 'The report.',
});

const explode = aiTool({
  description: 'Always fails',
  inputSchema: z.object({ why: z.string() }),
  execute: async (): Promise<string> => {
    throw new Error('boom');
  },
});

async function transcriptRun(root: string) {
  const store = new FileStore({ root });
  const { team, events } = testTeam(script, { members: ['a'], store, agents: { a: { tools: { explode } } } });
  const result = await team.run({ input: 'Write the report' });
  const log = await store.readEvents(result.runId);
  return { result, log, events };
}

const ofA = (log: TeamEvent[]) =>
  log.filter(
    (event) => 'agent' in event.data && event.data.agent === 'a' && event.type !== 'team:text-delta',
  );

test('a member’s turn is logged step by step: briefing, text, each tool call and its answer, in order', async () => {
  const { result, log } = await transcriptRun(tempFolder());
  expect(result.teamResult.stopReason).toBe('completed');
  const transcript = ofA(log);
  expect(transcript.map((event) => event.type)).toEqual([
    'team:turn-prompt',
    'team:turn-text',
    'team:tool-called',
    'team:tool-result',
    'team:tool-called',
    'team:tool-result',
    'team:tool-called',
    'team:tool-result',
    'team:turn-text',
  ]);
  const [prompt, said, called, answered, unknown, refused, mine, failed, reply] = transcript.map(
    (event) => event.data as unknown as Record<string, unknown>,
  );
  expect(prompt).toMatchObject({ agent: 'a', turn: 1, reason: 'task', taskId: 'task-1' });
  expect(prompt?.prompt).toContain('Report');
  expect(said).toEqual({ agent: 'a', turn: 1, step: 0, text: 'Reading the notes.' });
  // The huge input is cut in the event, with a marker that counts what was cut.
  const input = called?.input as string;
  const whole = JSON.stringify({ taskId: 'task-1', note: NOTE });
  expect(called).toMatchObject({ agent: 'a', turn: 1, taskId: 'task-1', toolName: 'update_task' });
  expect(input.length).toBeLessThanOrEqual(LIMITS.toolText);
  const cut = /\n\[cut: (\d+) more characters\]$/.exec(input);
  expect(cut).not.toBeNull();
  expect(input.indexOf('\n[cut:') + Number(cut?.[1])).toBe(whole.length);
  expect(whole.startsWith(input.slice(0, input.indexOf('\n[cut:')))).toBe(true);
  expect(answered).toMatchObject({ toolName: 'update_task', toolCallId: called?.toolCallId, isError: false });
  // Its answer holds the task with the note: cut the same way.
  expect(answered?.output).toMatch(/^\{"success":true,.*\n\[cut: \d+ more characters\]$/s);
  expect(String(answered?.output).length).toBeLessThanOrEqual(LIMITS.toolText);
  // A call the AI SDK refused before any tool ran is in the transcript too, as an error.
  expect(unknown).toMatchObject({ toolName: 'no_such_tool', input: '{}' });
  expect(refused).toMatchObject({ toolName: 'no_such_tool', isError: true });
  expect(refused?.output).toContain("Model tried to call unavailable tool 'no_such_tool'");
  expect(mine).toMatchObject({ toolName: 'explode', input: '{"why":"test"}' });
  expect(failed).toMatchObject({ toolName: 'explode', isError: true, output: 'boom' });
  expect(reply).toEqual({ agent: 'a', turn: 1, step: 3, text: 'The report.' });

  // In the log, each call comes before what the tool did, and its answer after; the turn's
  // transcript comes before the turn is closed.
  const seqOf = (predicate: (event: TeamEvent) => boolean) => log.find(predicate)?.seq ?? -1;
  const noted = seqOf((event) => event.type === 'team:task-updated' && event.data.task.note === NOTE);
  expect(transcript[2]?.seq).toBeLessThan(noted);
  expect(noted).toBeLessThan(transcript[3]?.seq ?? -1);
  const finished = seqOf((event) => event.type === 'team:member-finished' && event.data.member === 'a');
  expect(transcript.at(-1)?.seq).toBeLessThan(finished);
});

test('agent-teams logs --agent prints one agent’s transcript, turn by turn', {
  timeout: 60_000,
}, async () => {
  const cwd = tempFolder();
  const root = path.join(cwd, '.agent-teams');
  await transcriptRun(root);
  const shown = await cli(['logs', 't', '--agent', 'a'], { cwd });
  expect(shown.stderr).toBe('');
  expect(shown.code).toBe(0);
  const lines = shown.stdout.split('\n');
  const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
  const order = [
    /^turn 1 · task · task-1 Report · /,
    /^ {2}prompt: .*Report.* \(\d[\d,]* characters\)$/,
    /^ {2}says: Reading the notes\.$/,
    /^ {2}→ update_task \{"taskId":"task-1","note":"x+…$/,
    /^ {2}← update_task: \{"success":true/,
    /^ {2}→ no_such_tool \{\}$/,
    /^ {2}✗ no_such_tool: Model tried to call unavailable tool 'no_such_tool'/,
    /^ {2}→ explode \{"why":"test"\}$/,
    /^ {2}✗ explode: boom$/,
    /^ {2}says: The report\.$/,
    /^ {2}ended: idle · \d[\d,]* tokens$/,
  ].map(at);
  expect(order.every((index) => index >= 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  // Only a's: the lead's turns are not in it.
  expect(shown.stdout).not.toContain('· start ·');

  const json = await cli(['logs', 't', '--agent', 'a', '--json'], { cwd });
  const events = json.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TeamEvent);
  expect(events[0]?.type).toBe('team:member-started');
  const whose = (event: TeamEvent) => event.data as { member?: string; agent?: string };
  expect(events.every((event) => (whose(event).member ?? whose(event).agent) === 'a')).toBe(true);

  const wrong = await cli(['logs', 't', '--agent', 'zed'], { cwd });
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('no agent "zed" in the team t; its agents: lead, a');
});
