import { Agent, Team } from 'agent-teams';
import { fakeOpenAIServer, type Script } from 'agent-teams/testing';
import { afterAll, expect, test } from 'vitest';
import { testTeam } from '../helpers/team.js';

// A model that sends a tool call nested thousands of levels deep (JSON text: no object that
// deep can even be stringified) gets a tool error saying why, and the run goes on; a call
// nested within the limit is taken.
const nested = (depth: number, leaf: string) => `${'{"x":'.repeat(depth - 1)}${leaf}${'}'.repeat(depth - 1)}`;
const deepCall = (depth: number) => ({
  toolName: 'create_task',
  inputText: `{"title":"Deep","description":${nested(depth, '"end"')}}`,
});

/** The lead sends a call nested `depth` levels deep, then reports what it was told and plans one task. */
function script(depth: number): { script: Script; told: unknown[] } {
  const told: unknown[] = [];
  return {
    told,
    script: (call) => {
      if (call.agent !== 'lead') return 'done';
      if (call.reason === 'start' && call.step === 0) return { toolCalls: [deepCall(depth)] };
      if (call.reason === 'start' && call.step === 1) {
        told.push(call.toolResults[0]?.output);
        return { toolCalls: [{ toolName: 'create_task', input: { title: 'Flat' } }] };
      }
      return call.reason === 'synthesis' ? 'All done.' : 'Planned.';
    },
  };
}

test.each([5_000, 100_000])(
  'a tool call nested %i levels deep is a tool error saying why; the run completes',
  async (depth) => {
    const { script: lead, told } = script(depth);
    const { team, of } = testTeam(lead, { members: ['a'] });
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks.map((task) => task.title)).toEqual(['Flat']);
    expect(String(told[0])).toContain(`this input nests ${depth} levels deep`);
    expect(String(told[0])).toContain('past the limit of 64');
    const refused = of('team:tool-result').find((event) => event.data.toolName === 'create_task');
    expect(refused?.data.isError).toBe(true);
  },
);

test('a call nested 64 levels deep is taken (its tool answers for its fields)', async () => {
  const { script: lead, told } = script(63);
  const { team } = testTeam(lead, { members: ['a'] });
  expect((await team.run({ input: 'go' })).teamResult.stopReason).toBe('completed');
  expect(told[0]).toMatchObject({
    success: false,
    error: expect.stringContaining('description must be a string'),
  });
});

const server = await fakeOpenAIServer(script(5_000).script);
afterAll(() => server.close());

test('over HTTP, through a provider: the same', async () => {
  const previous = process.env.OPENAI_COMPATIBLE_BASE_URL;
  process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;
  try {
    const model = 'openai-compatible/scripted';
    const team = new Team({
      name: 't',
      lead: new Agent({ name: 'lead', model, instructions: 'Plan.' }),
      members: [new Agent({ name: 'a', model, instructions: 'Do.' })],
    });
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks.map((task) => task.title)).toEqual(['Flat']);
  } finally {
    process.env.OPENAI_COMPATIBLE_BASE_URL = previous;
  }
});
