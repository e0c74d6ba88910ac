import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore, MemoryStore, type TeamStore } from 'agent-teams';
import type { ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

const reachable = await postgresReachable();
const postgres = postgresStores();
const stores: [string, () => TeamStore][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore({ root: path.join(tempFolder(), '.agent-teams') })],
  ...(reachable ? [['PostgresStore', () => postgres.make()] as [string, () => TeamStore]] : []),
];

function workspace(): string {
  const root = path.join(tempFolder(), 'work');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  return root;
}

const plan = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Edit', assignee: 'a' })] };
  return call.reason === 'synthesis' ? 'Final' : 'ok';
};

/** A member that makes the same tool calls in every turn, then reports what they answered. */
const calling =
  (...calls: { toolName: string; input: Record<string, unknown> }[]) =>
  (call: ScriptedCall) =>
    call.step === 0 ? { toolCalls: calls } : JSON.stringify(call.toolResults.map((result) => result.output));

const outputs = (result: { teamResult: { tasks: readonly { result: string | null }[] } }) =>
  JSON.parse(result.teamResult.tasks[0]?.result ?? '[]') as { success: boolean; error?: string }[];

test('file tools stay in the workspace: "..", absolute paths and links out are refused with a reason', async () => {
  const root = workspace();
  const outside = tempFolder();
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, path.join(root, 'out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
  symlinkSync(path.join(outside, 'nowhere.txt'), path.join(root, 'dangling.txt'));
  const { team } = testTeam(
    byAgent({
      lead: plan,
      a: calling(
        tool('read_file', { path: '../secret.txt' }),
        tool('write_file', { path: path.join(outside, 'x.txt'), content: 'x' }),
        tool('write_file', { path: 'out/x.txt', content: 'x' }),
        tool('read_file', { path: 'secret.txt' }),
        tool('write_file', { path: 'dangling.txt', content: 'x' }),
        tool('read_file', { path: 'src/../src/a.ts' }),
      ),
    }),
    { members: ['a'], workspace: { root }, agents: { a: { permissionMode: 'bypass' } } },
  );
  const answers = outputs(await team.run({ input: 'go' }));
  expect(answers.map((answer) => answer.error)).toEqual([
    '../secret.txt leaves the workspace: stay inside it.',
    `${path.join(outside, 'x.txt')} is an absolute path: give a path relative to the workspace root.`,
    'out/x.txt leads out of the workspace through a link: refused.',
    'secret.txt leads out of the workspace through a link: refused.',
    'dangling.txt goes through a link that leads nowhere: refused.',
    undefined,
  ]);
  expect(answers[5]).toMatchObject({ success: true, path: 'src/a.ts', content: 'export const a = 1;\n' });
  expect(() => readFileSync(path.join(outside, 'x.txt'))).toThrow();
  expect(() => readFileSync(path.join(outside, 'nowhere.txt'))).toThrow();
});

test('edit_file replaces text that occurs exactly once; list_files takes a glob', async () => {
  const root = workspace();
  writeFileSync(path.join(root, 'src/b.ts'), 'x x\n');
  writeFileSync(path.join(root, 'notes.md'), '# notes\n');
  const { team } = testTeam(
    byAgent({
      lead: plan,
      a: calling(
        tool('edit_file', { path: 'src/a.ts', oldText: '= 1', newText: '= 2' }),
        tool('edit_file', { path: 'src/b.ts', oldText: 'x', newText: 'y' }),
        tool('edit_file', { path: 'src/b.ts', oldText: 'z', newText: 'y' }),
        tool('list_files', { pattern: 'src/**' }),
        tool('list_files', {}),
      ),
    }),
    { members: ['a'], workspace: { root }, agents: { a: { permissionMode: 'bypass' } } },
  );
  const answers = outputs(await team.run({ input: 'go' }));
  expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  expect(answers[1]?.error).toBe('oldText occurs 2 times in src/b.ts: give more of the text around it.');
  expect(answers[2]?.error).toBe(
    'oldText does not occur in src/b.ts: read the file and copy the text exactly.',
  );
  expect(answers[3]).toMatchObject({ files: ['src/a.ts', 'src/b.ts'] });
  expect(answers[4]).toMatchObject({ files: ['notes.md', 'src/a.ts', 'src/b.ts'] });
});

test.each(stores)(
  'on a %s a write no grant covers asks the person; once approved, the harness writes the file as asked, once, and the member reads that it did',
  async (_name, store) => {
    const root = workspace();
    const write = tool('write_file', { path: 'README.md', content: '# hi\n' });
    const { team, of, model } = testTeam(
      byAgent({
        lead: plan,
        // The member never repeats the call: the approved one is made for it.
        a: (call) =>
          call.turn === 1
            ? call.step === 0
              ? { toolCalls: [write] }
              : JSON.stringify(call.toolResults.map((result) => result.output))
            : call.step === 0 && call.turn === 2
              ? { toolCalls: [write] } // the same call again, later: it asks again
              : call.turn === 2
                ? JSON.stringify(call.toolResults.map((result) => result.output))
                : 'Done.',
      }),
      { members: ['a'], store: store(), workspace: { root } },
    );
    const run = await team.start({ input: 'go' });
    for await (const event of run.events()) {
      if (event.type !== 'team:request-opened') continue;
      expect(event.data).toMatchObject({
        kind: 'permission',
        from: 'a',
        to: 'user',
        tool: 'write_file',
        path: 'README.md',
        subject: 'a asks to write_file README.md',
      });
      if (event.data.requestId.endsWith('-1-1')) {
        expect(() => readFileSync(path.join(root, 'README.md'))).toThrow();
        await run.respond(event.data.requestId, { approve: true });
      } else {
        await run.respond(event.data.requestId, { approve: false, feedback: 'Once is enough.' });
      }
    }
    const result = await run.result;
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toBe('# hi\n');
    // The turn that asked ended after its step; the next one began with the call made.
    expect(model.calls.filter((call) => call.agent === 'a' && call.turn === 1)).toHaveLength(1);
    const next = model.calls.find((call) => call.agent === 'a' && call.turn === 2 && call.step === 0);
    expect(next?.prompt).toContain('approved by user; the call is made for you as you asked it');
    expect(next?.prompt).toContain(
      'req-a-1-1: write_file answered {"success":true,"path":"README.md","written":5}',
    );
    expect(of('team:approved-call-ran').map((event) => event.data)).toEqual([
      {
        requestId: 'req-a-1-1',
        agent: 'a',
        turn: 2,
        tool: 'write_file',
        output: '{"success":true,"path":"README.md","written":5}',
      },
    ]);
    // An approval covers one call: the same write later asked again (and was refused).
    expect(of('team:request-opened').map((event) => event.data.requestId)).toEqual([
      'req-a-1-1',
      'req-a-2-1',
    ]);
    const turn3 = model.calls.find((call) => call.agent === 'a' && call.turn === 3 && call.step === 0);
    expect(turn3?.prompt).toContain(
      'req-a-2-1 (permission: a asks to write_file README.md): rejected by user',
    );
    expect(result.teamResult.tasks[0]?.result).toBe('Done.');
  },
);

test("the team's allowedPaths let members write there without asking; a denial is the tool's error with the reason", async () => {
  const root = workspace();
  const { team, of } = testTeam(
    byAgent({
      lead: plan,
      a: calling(
        tool('write_file', { path: 'src/new.ts', content: 'new' }),
        tool('write_file', { path: 'package.json', content: '{}' }),
      ),
    }),
    { members: ['a'], workspace: { root }, permissions: { allowedPaths: [{ path: 'src/**', tool: '*' }] } },
  );
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type === 'team:request-opened')
      await run.respond(event.data.requestId, { approve: false, feedback: 'Leave package.json alone.' });
  }
  const answers = outputs(await run.result);
  expect(of('team:request-opened').map((event) => event.data.path)).toEqual(['package.json']);
  expect(readFileSync(path.join(root, 'src/new.ts'), 'utf8')).toBe('new');
  expect(answers[1]?.error).toBe(
    'Permission to write_file package.json was denied (by user): Leave package.json alone.',
  );
  expect(() => readFileSync(path.join(root, 'package.json'))).toThrow();
});

test('delegatedByTeamLead: the lead is asked, grants paths with grant_paths, and the member asks no more there', async () => {
  const root = workspace();
  const { team, of } = testTeam(
    byAgent({
      lead: (call) => {
        const requestId = call.prompt.match(/req-[\w-]+/)?.[0];
        if (call.reason === 'message' && requestId && call.step === 0)
          return {
            toolCalls: [
              tool('grant_paths', { member: 'a', paths: ['docs/**'], tool: 'write_file' }),
              tool('answer_request', { requestId, approve: true }),
            ],
          };
        return plan(call);
      },
      a: (call) => {
        const first = call.turn === 1;
        if (call.step === 0)
          return {
            toolCalls: [tool('write_file', { path: first ? 'docs/a.md' : 'docs/b.md', content: 'doc' })],
          };
        return 'Wrote the docs.';
      },
    }),
    { members: ['a'], workspace: { root }, agents: { a: { permissionMode: 'delegatedByTeamLead' } } },
  );
  const result = await team.run({ input: 'go' });
  expect(of('team:request-opened').map((event) => [event.data.to, event.data.path])).toEqual([
    ['lead', 'docs/a.md'],
  ]);
  expect(of('team:paths-granted').map((event) => event.data)).toEqual([
    { member: 'a', paths: ['docs/**'], tool: 'write_file', by: 'lead' },
  ]);
  expect(readFileSync(path.join(root, 'docs/b.md'), 'utf8')).toBe('doc');
  expect(result.teamResult.tasks[0]?.status).toBe('completed');
});

test('a classifier allows, denies, or (undefined) lets the member ask', async () => {
  const root = workspace();
  const { team, of } = testTeam(
    byAgent({
      lead: plan,
      a: calling(
        tool('write_file', { path: 'notes/n.md', content: 'n' }),
        tool('write_file', { path: 'secrets/s.md', content: 's' }),
        tool('write_file', { path: 'other.md', content: 'o' }),
      ),
    }),
    {
      members: ['a'],
      workspace: { root },
      permissionTimeoutMs: 20,
      agents: {
        a: {
          permissionMode: 'classifier',
          classifier: ({ path: file }) =>
            file.startsWith('notes/') ? true : file.startsWith('secrets/') ? false : undefined,
        },
      },
    },
  );
  const answers = outputs(await team.run({ input: 'go' }));
  expect(readFileSync(path.join(root, 'notes/n.md'), 'utf8')).toBe('n');
  expect(answers[1]?.error).toBe('Permission to write_file secrets/s.md was denied by the classifier.');
  // Nobody answered the one it asked: after permissionTimeoutMs it is a denial.
  expect(of('team:request-opened').map((event) => event.data.path)).toEqual(['other.md']);
  expect(of('team:request-expired').map((event) => event.data.approve)).toEqual([false]);
  expect(answers[2]?.error).toBe(
    'Permission to write_file other.md was denied (nobody answered in time): No answer within 20 ms: denied.',
  );
});

test.each([
  ['once', false],
  ['always', true],
])(
  'an own tool marked needsApproval asks the person; approved (%s), the harness runs it as asked',
  async (_, always) => {
    let deployed = 0;
    const deploy = tool('deploy', { target: 'prod' });
    const a = (call: ScriptedCall) => {
      // Turn 1 asks; turn 2 reads the result of the call made for it, then makes it again.
      if ((call.turn ?? 0) <= 2 && call.step === 0) return { toolCalls: [deploy] };
      return JSON.stringify(call.toolResults.map((result) => result.output));
    };
    const { team, of, model } = testTeam(byAgent({ lead: plan, a }), {
      members: ['a'],
      agents: {
        a: {
          tools: {
            deploy: {
              description: 'Deploy',
              inputSchema: (await import('zod')).z.object({ target: (await import('zod')).z.string() }),
              needsApproval: true,
              execute: async ({ target }: { target: string }) => {
                deployed++;
                return `deployed to ${target}`;
              },
            },
          } as never,
        },
      },
    });
    const run = await team.start({ input: 'go' });
    for await (const event of run.events()) {
      if (event.type !== 'team:request-opened') continue;
      expect(event.data).toMatchObject({
        kind: 'tool',
        to: 'user',
        tool: 'deploy',
        subject: 'deploy {"target":"prod"}',
      });
      if (event.data.requestId === 'req-a-1-1') {
        expect(deployed).toBe(0);
        await run.respond(event.data.requestId, { approve: true, always });
      } else await run.respond(event.data.requestId, { approve: false, feedback: 'Not twice.' });
    }
    const result = await run.result;
    const turn2 = model.calls.find((call) => call.agent === 'a' && call.turn === 2 && call.step === 0);
    expect(turn2?.prompt).toContain('req-a-1-1: deploy answered "deployed to prod"');
    expect(of('team:approved-call-ran').map((event) => event.data.requestId)).toEqual(['req-a-1-1']);
    if (always) {
      // A standing grant: the same call later runs without asking.
      expect(deployed).toBe(2);
      expect(of('team:request-opened')).toHaveLength(1);
      expect(result.teamResult.tasks[0]?.result).toBe('["deployed to prod"]');
    } else {
      // One approval, one call: the same call later asked again, and was refused.
      expect(deployed).toBe(1);
      expect(of('team:request-opened').map((event) => event.data.requestId)).toEqual([
        'req-a-1-1',
        'req-a-2-1',
      ]);
      const turn3 = model.calls.find((call) => call.agent === 'a' && call.turn === 3 && call.step === 0);
      expect(turn3?.prompt).toContain(
        'req-a-2-1 (tool: deploy {"target":"prod"}): rejected by user. Feedback: Not twice.',
      );
    }
  },
);

test('list_files answers a pattern that would make a RegExp backtrack for minutes promptly, and refuses a bad one', async () => {
  const root = workspace();
  writeFileSync(path.join(root, 'a'.repeat(100)), 'long name');
  const { team } = testTeam(
    byAgent({
      lead: plan,
      a: calling(
        tool('list_files', { pattern: '*a*a*a*a*a*a*a*a*b' }),
        tool('list_files', { pattern: '*a*a*a*a*a*a*a*a*' }),
        tool('list_files', { pattern: '*'.repeat(501) }),
        tool('list_files', { pattern: '../*' }),
      ),
    }),
    { members: ['a'], workspace: { root }, agents: { a: { permissionMode: 'bypass' } } },
  );
  // The former matcher took over a minute on the first pattern; this one is linear in it. The
  // test's time limit is the backstop: no clock is read, so a loaded machine cannot fail it.
  const answers = outputs(await team.run({ input: 'go' }));
  expect(answers[0]).toMatchObject({ success: true, files: [] });
  expect(answers[1]).toMatchObject({ success: true, files: ['a'.repeat(100)] });
  expect(answers[2]?.error).toBe('list_files: a path pattern must be a non-empty string of ≤500 characters.');
  expect(answers[3]?.error).toBe(
    'list_files: the pattern "../*" must be relative to the workspace root, without "..".',
  );
}, 10_000);
