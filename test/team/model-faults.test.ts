import { Agent, type AgentConfig, isTeamError, Team, type TeamConfig, type TeamEvent } from 'agent-teams';
import {
  type FakeOpenAIServer,
  type FaultScript,
  fakeOpenAIServer,
  type ModelFault,
} from 'agent-teams/testing';
import { afterEach, expect, test } from 'vitest';
import { byAgent, createTask } from '../helpers/team.js';

// A whole team over real HTTP, through the openai-compatible provider and the AI SDK's own
// retries, against a server that misbehaves on the calls each test picks. The lead gives
// "Fragile" to a (the agent the faults hit) and "Solid" to b, who can take Fragile over.
// Vitest fails a file on any uncaught exception or unhandled rejection, so every passing
// case also says the process did not crash; its test timeout says no case hangs.

const script = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? {
          toolCalls: [
            createTask({ title: 'Fragile', assignee: 'a' }),
            createTask({ title: 'Solid', assignee: 'b' }),
          ],
        }
      : call.reason === 'synthesis'
        ? 'Final'
        : 'Planned.',
  // a says what its last tool calls answered, so a test sees what the model was told.
  a: (call) =>
    call.toolResults.length > 0 ? `a was told: ${String(call.toolResults[0]?.output)}` : 'done by a',
  b: () => 'done by b',
});

/** The fault on the first call `agent` makes, or on every call it makes. */
const on =
  (agent: string, fault: ModelFault, when: 'first' | 'every'): FaultScript =>
  (call, earlier) =>
    call.agent === agent && (when === 'every' || !earlier.some((before) => before.agent === agent))
      ? fault
      : undefined;

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  // A hung call must not keep the server open: close() itself is under the hook's timeout.
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Setup {
  readonly team?: Partial<Omit<TeamConfig, 'name' | 'lead' | 'members'>>;
  readonly lead?: Partial<AgentConfig>;
  readonly a?: Partial<AgentConfig>;
}

/** Runs the team against a faulty server; checks what must hold after any fault. */
async function runWith(faults: FaultScript, setup: Setup = {}) {
  const server = await fakeOpenAIServer(script, { faults });
  servers.push(server);
  const previous = process.env.OPENAI_COMPATIBLE_BASE_URL;
  process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;
  try {
    const model = 'openai-compatible/scripted';
    const team = new Team({
      name: 't',
      lead: new Agent({ name: 'lead', model, instructions: 'Plan.', ...setup.lead }),
      members: [
        new Agent({ name: 'a', model, instructions: 'Do a.', ...setup.a }),
        new Agent({ name: 'b', model, instructions: 'Do b.' }),
      ],
      ...setup.team,
    });
    const events: TeamEvent[] = [];
    team.on('*', (event) => events.push(event));
    const run = await team.start({ input: 'go' });
    const outcome = await run.result.then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );
    // The store is consistent: nothing in progress with nobody on it, every task done or back.
    const tasks = await team.store.transact('t', ({ board }) => board.listTasks());
    for (const task of tasks) expect(['completed', 'pending']).toContain(task.status);
    // The run ended properly: team:complete is the last event, emitted and logged.
    expect(events.at(-1)?.type).toBe('team:complete');
    expect((await team.store.readEvents(run.runId)).at(-1)?.type).toBe('team:complete');
    const finished = (member: string) =>
      events.flatMap((event) =>
        event.type === 'team:member-finished' && event.data.member === member ? [event.data] : [],
      );
    const byTitle = (title: string) => tasks.find((task) => task.title === title);
    return { ...outcome, tasks, events, server, finished, byTitle, callsOf: callsOf(server) };
  } finally {
    if (previous === undefined) delete process.env.OPENAI_COMPATIBLE_BASE_URL;
    else process.env.OPENAI_COMPATIBLE_BASE_URL = previous;
  }
}

/** Each call of an agent as `turn/step`: a retry repeats its turn and step. */
const callsOf = (server: FakeOpenAIServer) => (agent: string) =>
  server.calls.filter((call) => call.agent === agent).map((call) => `${call.turn}/${call.step}`);

const skip = { errorHandling: { onAgentFailure: 'skip' } } as const;
const RATE_LIMITED = 'Rate limit reached (a fault injected by fakeOpenAIServer)';
const SERVER_ERROR = 'The server had an error (HTTP 500) (a fault injected by fakeOpenAIServer)';

// 429 and 5xx are what an overloaded provider answers, and a reset connection is a network
// blip: all three are transient, and the AI SDK retries them (APICallError.isRetryable), after
// Retry-After when the server sends one, else its backoff (2 s, then 4 s). One fault is
// therefore invisible to the team: a's turn simply succeeds on its second attempt.
test.each([
  ['429 with Retry-After', { kind: 'status', status: 429, retryAfterSeconds: 1 }],
  ['500', { kind: 'status', status: 500 }],
  ['a connection reset', { kind: 'reset' }],
] as const)('%s once: the AI SDK retries the call and the run completes', async (_name, fault) => {
  const run = await runWith(on('a', fault, 'first'));
  expect(run.error).toBeUndefined();
  expect(run.result?.teamResult.stopReason).toBe('completed');
  expect(run.callsOf('a')).toEqual(['1/0', '1/0']); // the same call, twice
  expect(run.server.faulted.map((faulted) => faulted.fault)).toEqual([fault]);
  expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'a', result: 'done by a' });
  expect(run.finished('a')).toMatchObject([{ status: 'idle', error: null }]);
  expect(run.result?.output).toBe('Final');
});

// When every attempt fails, retrying is over (maxRetries 1: two attempts) and the turn fails
// with the AI SDK's RetryError, whose message names the last cause. The team's policy then
// decides, exactly as for any failed turn: skip marks a failed and gives its task back for b;
// the default fails the run with agent-failed, after team:complete.
const everyAttempt = [
  ['429', { kind: 'status', status: 429, retryAfterSeconds: 0 }, RATE_LIMITED],
  ['500', { kind: 'status', status: 500, retryAfterSeconds: 0 }, SERVER_ERROR],
  ['reset', { kind: 'reset' }, 'Cannot connect to API: '],
] as const;

test.each(everyAttempt)(
  '%s on every attempt, skip: a fails, b does its task',
  async (_name, fault, cause) => {
    const run = await runWith(on('a', fault, 'every'), { team: skip, a: { maxRetries: 1 } });
    expect(run.callsOf('a')).toEqual(['1/0', '1/0']);
    const [failed] = run.finished('a');
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toContain(`Failed after 2 attempts. Last error: ${cause}`);
    expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'b' });
    expect(run.result?.teamResult.stopReason).toBe('completed');
  },
);

test.each(everyAttempt)(
  '%s on every attempt, default policy: the run fails naming the cause',
  async (_name, fault, cause) => {
    const run = await runWith(on('a', fault, 'every'), { a: { maxRetries: 1 } });
    expect(isTeamError(run.error, 'agent-failed')).toBe(true);
    expect((run.error as Error).message).toContain(
      `The agent a failed: Failed after 2 attempts. Last error: ${cause}`,
    );
    expect(run.events.at(-1)).toMatchObject({ type: 'team:complete', data: { stopReason: 'failed' } });
  },
);

// The lead's failure is never skipped: without a plan or a synthesis there is no run.
test('a server error on every call of the lead fails the run, even with skip', async () => {
  const fault = { kind: 'status', status: 500, retryAfterSeconds: 0 } as const;
  const run = await runWith(on('lead', fault, 'every'), { team: skip, lead: { maxRetries: 1 } });
  expect(isTeamError(run.error, 'agent-failed')).toBe(true);
  expect((run.error as Error).message).toBe(
    `The agent lead failed: Failed after 2 attempts. Last error: ${SERVER_ERROR}`,
  );
  expect(run.tasks).toEqual([]);
});

// A server that never answers holds the call until the client gives up: only turnTimeoutMs
// ends it (the AI SDK does not retry an abort), and the turn fails like any other.
test.each([
  ['skip', skip],
  ['the default policy', {}],
] as const)('a call that never gets an answer is ended by turnTimeoutMs (%s)', async (policy, team) => {
  const run = await runWith(on('a', { kind: 'hang' }, 'every'), { team, a: { turnTimeoutMs: 300 } });
  const timedOut = 'The turn of a took longer than 300 ms (turnTimeoutMs) and was stopped.';
  expect(run.callsOf('a')).toEqual(['1/0']);
  expect(run.finished('a')).toMatchObject([{ status: 'failed', error: timedOut }]);
  if (policy === 'skip') {
    expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'b' });
  } else {
    expect(isTeamError(run.error, 'agent-failed')).toBe(true);
    expect((run.error as Error).message).toBe(`The agent a failed: ${timedOut}`);
  }
});

// A 200 whose body is not JSON is not a transient status: the AI SDK does not retry it
// (isRetryable is false for a 2xx), so the turn fails at once with "Invalid JSON response"
// and the policy handles it. Retrying a broken proxy's junk would only hide it.
test('a 200 that is not JSON fails the turn without a retry, handled by the policy', async () => {
  const run = await runWith(on('a', { kind: 'malformed-json' }, 'first'), { team: skip });
  expect(run.callsOf('a')).toEqual(['1/0']);
  expect(run.finished('a')).toMatchObject([{ status: 'failed', error: 'Invalid JSON response' }]);
  expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'b' });
  expect(run.result?.teamResult.stopReason).toBe('completed');
});

// A bad tool call is the model's mistake, not the transport's: the AI SDK turns it into a
// tool error the model reads on its next step (no exception, no retry), so the model can
// correct itself within its turn, as a real model would.
test.each([
  [
    'invalid tool arguments',
    { kind: 'invalid-tool-arguments', toolName: 'update_task' },
    'Invalid input for tool update_task: JSON parsing failed',
  ],
  [
    'an unknown tool',
    { kind: 'unknown-tool' },
    "Model tried to call unavailable tool 'no_such_tool'. Available tools: list_tasks,",
  ],
] as const)('%s: the model is told and finishes its turn', async (_name, fault, told) => {
  const run = await runWith(on('a', fault, 'first'));
  expect(run.error).toBeUndefined();
  expect(run.callsOf('a')).toEqual(['1/0', '1/1']); // one turn, two steps
  const second = run.server.calls.filter((call) => call.agent === 'a')[1];
  expect(second?.toolResults).toHaveLength(1);
  expect(String(second?.toolResults[0]?.output)).toContain(told);
  expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'a' });
  expect(run.byTitle('Fragile')?.result).toContain(`a was told: ${told}`);
  expect(run.finished('a')).toMatchObject([{ status: 'idle', error: null }]);
});

// An empty reply is a valid completion: the turn ends with no result, so the harness gives
// the task back (never completes it with nothing), and a later turn does it.
test('an empty reply gives the task back, and it is done later', async () => {
  const run = await runWith(on('a', { kind: 'empty' }, 'first'));
  expect(run.error).toBeUndefined();
  expect(run.finished('a')[0]).toMatchObject({ turn: 1, status: 'idle', output: '', error: null });
  const givenBack = run.events.find(
    (event) =>
      event.type === 'team:task-updated' && event.data.task.note === 'a ended its turn without a result',
  );
  expect(givenBack).toBeDefined();
  expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed' });
  expect(run.result?.teamResult.stopReason).toBe('completed');
});

// A model that keeps sending bad tool calls or nothing never fails the run, and never loops:
// each of its turns is bounded by maxIterations, each turn without a result gives the task
// back, and its turns are bounded by maxTurnsPerMember, so b ends up doing the task.
test.each([
  ['invalid tool arguments', { kind: 'invalid-tool-arguments', toolName: 'update_task' }],
  ['an unknown tool', { kind: 'unknown-tool' }],
  ['an empty reply', { kind: 'empty' }],
] as const)('%s on every call: bounded, and another member does the task', async (_name, fault) => {
  const run = await runWith(on('a', fault, 'every'), { a: { maxIterations: 3 } });
  expect(run.error).toBeUndefined();
  expect(run.callsOf('a').every((call) => Number(call.split('/')[1]) < 3)).toBe(true);
  expect(run.finished('a').every((turn) => turn.error === null && turn.output === '')).toBe(true);
  expect(run.byTitle('Fragile')).toMatchObject({ status: 'completed', owner: 'b', result: 'done by b' });
  expect(run.result?.teamResult.stopReason).toBe('completed');
});
