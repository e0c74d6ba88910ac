import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import type { ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';

const plan = (call: ScriptedCall) => {
  if (call.reason === 'start' && call.step === 0)
    return { toolCalls: [createTask({ title: 'Docs', assignee: 'a' })] };
  return call.reason === 'synthesis' ? 'Final' : 'ok';
};

test('agent-teams respond answers a request of a run in another process, which goes on with it', async () => {
  const cwd = tempFolder();
  const root = path.join(cwd, 'work');
  mkdirSync(root);
  const { team, model } = testTeam(
    byAgent({
      lead: plan,
      a: (call) =>
        call.step === 0
          ? { toolCalls: [tool('write_file', { path: 'docs.md', content: 'docs' })] }
          : JSON.stringify(call.toolResults.map((result) => result.output)),
    }),
    { members: ['a'], store: new FileStore({ root: path.join(cwd, '.agent-teams') }), workspace: { root } },
  );
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type !== 'team:request-opened') continue;
    const { requestId } = event.data;
    const neither = await cli(['respond', 't', requestId], { cwd });
    expect(neither).toMatchObject({ code: 1, stderr: 'agent-teams: give one of --approve or --reject\n' });
    const unknown = await cli(['respond', 't', 'req-x-1-1', '--approve'], { cwd });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'agent-teams: There is no request req-x-1-1 in this run.\n',
    });
    const always = await cli(['respond', 't', requestId, '--reject', '--always'], { cwd });
    expect(always).toMatchObject({ code: 1, stderr: 'agent-teams: --always goes with --approve\n' });
    const rejected = await cli(['respond', 't', requestId, '--reject', '--feedback', 'Not there.'], { cwd });
    expect(rejected.stderr).toBe('');
    expect(rejected.stdout).toBe(`rejected ${requestId} (permission from a) in t\n`);
    const late = await cli(['respond', 't', requestId, '--approve'], { cwd });
    expect(late).toMatchObject({
      code: 1,
      stderr: `agent-teams: The request ${requestId} was already rejected by user.\n`,
    });
  }
  const result = await run.result;
  const resumed = model.calls.find((call) => call.agent === 'a' && call.turn === 2);
  expect(resumed?.prompt).toContain('rejected by user. Feedback: Not there.');
  expect(result.teamResult.tasks[0]?.result).toContain(
    'Permission to write_file docs.md was denied (by user): Not there.',
  );
  expect(() => readFileSync(path.join(root, 'docs.md'))).toThrow();
});
