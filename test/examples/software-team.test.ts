import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TeamEvent } from 'agent-teams';
import { type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { softwareTeam } from '../../examples/software-team.js';
import { byAgent, createTask, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const code = [
  'export function slugify(text: string): string {',
  "  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  '}',
  '',
].join('\n');
const firstCase = "  expect(slugify('Hello World')).toBe('hello-world');\n";
const edgeCase = "  expect(slugify('  --Tides & Moons--  ')).toBe('tides-moons');\n";
const testFile = (cases: string) =>
  `import { expect, test } from 'vitest';\nimport { slugify } from '../src/slugify.js';\n\ntest('slugify', () => {\n${cases}});\n`;
const review = 'Approved: small, tested, and the edge cases are covered.\n';

const lead = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return {
      toolCalls: [
        createTask({ title: 'Write slugify in src/slugify.ts', assignee: 'coder' }),
        createTask({ title: 'Test the edge cases of slugify', assignee: 'tester', dependsOn: ['task-1'] }),
        createTask({ title: 'Review the change', assignee: 'reviewer', dependsOn: ['task-1', 'task-2'] }),
      ],
    };
  if (call.reason === 'synthesis') return 'slugify is written, tested and reviewed.';
  // A turn given for the coder's plan: grant src/** and approve it.
  const requestId = call.prompt.match(/req-[\w-]+/)?.[0];
  if (requestId && call.step === 0 && call.prompt.includes('Requests waiting'))
    return {
      toolCalls: [
        tool('grant_paths', { member: 'coder', paths: ['src/**'], tool: '*' }),
        tool('answer_request', { requestId, approve: true, feedback: 'Go ahead.' }),
      ],
    };
  return 'ok';
};

const coder = (call: ScriptedCall) => {
  if (call.tools.includes('submit_plan'))
    return call.step === 0
      ? { toolCalls: [tool('submit_plan', { plan: 'src/slugify.ts: lower-case, hyphens between words.' })] }
      : 'Submitted.';
  const rejected = call.prompt.includes('No tests yet');
  if (call.step === 0)
    return {
      toolCalls: [
        rejected
          ? tool('write_file', { path: 'test/slugify.test.ts', content: testFile(firstCase) })
          : tool('write_file', { path: 'src/slugify.ts', content: code }),
      ],
    };
  return rejected ? 'Added test/slugify.test.ts.' : 'Wrote src/slugify.ts.';
};

const tester = (call: ScriptedCall) =>
  call.step === 0
    ? {
        toolCalls: [
          tool('read_file', { path: 'src/slugify.ts' }),
          tool('edit_file', {
            path: 'test/slugify.test.ts',
            oldText: firstCase,
            newText: firstCase + edgeCase,
          }),
        ],
      }
    : 'Added an edge case.';

// Default mode: its write asks the person; the turn after the answer writes again.
// The reviewer asks to write once: once approved, the write is made for it as asked.
const reviewer = (call: ScriptedCall) =>
  call.step === 0 && !call.prompt.includes('made for you')
    ? {
        toolCalls: [
          tool('list_files', { pattern: '{src,test}/**' }),
          tool('write_file', { path: 'docs/review.md', content: review }),
        ],
      }
    : review.trim();

test('the software team: plan approved by the lead, src granted, a completion sent back for its test, a write the person approves', async () => {
  const root = tempFolder();
  const model = scriptedModel(byAgent({ lead, coder, tester, reviewer }));
  const team = softwareTeam(root).withModel(model);
  const events: TeamEvent[] = [];
  team.on('*', (event) => events.push(event));
  const of = <K extends TeamEvent['type']>(type: K) =>
    events.filter((event) => event.type === type) as unknown as TeamEvent<K>[];

  const run = await team.start({ input: 'Add a slugify function' });
  for await (const event of run.events()) {
    if (event.type !== 'team:request-opened' || event.data.to !== 'user') continue;
    // Asked before anything is written there.
    expect(() => readFileSync(path.join(root, 'docs/review.md'))).toThrow();
    await run.respond(event.data.requestId, { approve: true, feedback: 'Fine.' });
  }
  const result = await run.result;

  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.output).toBe('slugify is written, tested and reviewed.');
  expect(result.teamResult.tasks.map((task) => [task.id, task.status, task.owner, task.result])).toEqual([
    ['task-1', 'completed', 'coder', 'Added test/slugify.test.ts.'],
    ['task-2', 'completed', 'tester', 'Added an edge case.'],
    ['task-3', 'completed', 'reviewer', review.trim()],
  ]);

  // The files, as the members wrote and edited them.
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  expect(read('src/slugify.ts')).toBe(code);
  expect(read('test/slugify.test.ts')).toBe(testFile(firstCase + edgeCase));
  expect(read('docs/review.md')).toBe(review);

  // Every request, and its answer: the plan to the lead, the review's write to the person.
  const opened = of('team:request-opened').map((event) => event.data);
  expect(opened.map(({ kind, from, to, taskId, path: file }) => ({ kind, from, to, taskId, file }))).toEqual([
    { kind: 'plan', from: 'coder', to: 'lead', taskId: 'task-1', file: null },
    { kind: 'permission', from: 'reviewer', to: 'user', taskId: 'task-3', file: 'docs/review.md' },
  ]);
  expect(opened[0]?.subject).toContain('src/slugify.ts: lower-case, hyphens between words.');
  expect(of('team:request-answered').map((event) => event.data)).toEqual([
    { requestId: opened[0]?.requestId, approve: true, feedback: 'Go ahead.', by: 'lead' },
    { requestId: opened[1]?.requestId, approve: true, feedback: 'Fine.', by: 'user' },
  ]);
  expect(of('team:request-expired')).toEqual([]);
  expect(of('team:request-forwarded')).toEqual([]);
  // The coder wrote src/ under the lead's grant, asking nothing more; test/ is the team's.
  expect(of('team:paths-granted').map((event) => event.data)).toEqual([
    { member: 'coder', paths: ['src/**'], tool: '*', by: 'lead' },
  ]);

  // The first completion had no test: rejected, the task stayed with the coder, who wrote it.
  expect(of('team:hook-rejected').map((event) => event.data)).toEqual([
    {
      hook: 'onTaskCompleted',
      agent: 'coder',
      taskId: 'task-1',
      feedback: 'No tests yet: write test/slugify.test.ts before you complete the task.',
    },
  ]);
  expect(of('team:task-completed').map((event) => [event.data.task.id, event.data.by])).toEqual([
    ['task-1', 'coder'],
    ['task-2', 'tester'],
    ['task-3', 'reviewer'],
  ]);
  // Between the rejection and the second completion the task was never given back.
  expect(of('team:task-updated').filter((event) => event.data.to === 'pending')).toEqual([]);
  const coderTurns = model.calls.filter((call) => call.agent === 'coder' && call.step === 0);
  expect(coderTurns.map((call) => call.reason)).toEqual(['task', 'task', 'task']);
  expect(coderTurns[1]?.prompt).toContain('approved by lead. Feedback: Go ahead.');
  expect(coderTurns[2]?.prompt).toContain('No tests yet: write test/slugify.test.ts');
  // The reviewer's second turn had the person's answer and wrote the review.
  const reviewerTurns = model.calls.filter((call) => call.agent === 'reviewer' && call.step === 0);
  expect(reviewerTurns).toHaveLength(2);
  expect(reviewerTurns[1]?.prompt).toContain('approved by user; the call is made for you');
  expect(reviewerTurns[1]?.prompt).toMatch(/write_file answered \{"success":true,"path":"docs\/review.md"/);
});
