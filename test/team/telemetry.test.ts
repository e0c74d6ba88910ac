import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { isTeamError } from 'agent-teams';
import { afterAll, expect, test } from 'vitest';
import { SPAN_ATTRIBUTES as ATTR } from '../../src/telemetry/run-tracing.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';

// What a user's OpenTelemetry setup does: a tracer provider exporting where they look (here
// in memory), and a context manager so spans made inside a turn nest under it.
const manager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(manager);
afterAll(() => {
  context.disable();
});

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

const script = byAgent({
  lead: (call) =>
    call.reason === 'start' && call.step === 0
      ? { toolCalls: [createTask({ title: 'Research', assignee: 'a' })] }
      : 'Final',
  a: (call) => (call.step === 0 ? { toolCalls: [tool('list_tasks')] } : 'Found it.'),
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

test('a traced run has a span, a child span per turn with who and why, and the AI SDK’s spans under each turn', async () => {
  const { exporter, tracer } = tracing();
  const { team, of } = testTeam(script, { members: ['a'], telemetry: { tracer, recordInputs: false } });
  const result = await team.run({ input: 'go' });
  const spans = exporter.getFinishedSpans();
  const runs = spans.filter((span) => span.name === 'agent-teams.run');
  expect(runs).toHaveLength(1);
  const run = runs[0] as ReadableSpan;
  expect(run.attributes).toEqual({
    [ATTR.team]: 't',
    [ATTR.runId]: result.runId,
    [ATTR.stopReason]: 'completed',
  });
  const turns = spans.filter((span) => span.name === 'agent-teams.turn');
  // One per turn the run took, in the run's span, each saying whose turn and why.
  expect(turns.map((span) => span.attributes)).toEqual(
    expect.arrayContaining(
      of('team:member-started').map((event) =>
        expect.objectContaining({
          [ATTR.team]: 't',
          [ATTR.runId]: result.runId,
          [ATTR.agent]: event.data.member,
          [ATTR.reason]: event.data.reason,
          [ATTR.turn]: event.data.turn,
          ...(event.data.taskId ? { [ATTR.taskId]: event.data.taskId } : {}),
        }),
      ),
    ),
  );
  expect(turns).toHaveLength(of('team:member-started').length);
  expect(turns.every((span) => parentOf(span) === run.spanContext().spanId)).toBe(true);
  const taskTurn = turns.find((span) => span.attributes[ATTR.agent] === 'a');
  expect(taskTurn?.attributes[ATTR.taskId]).toBe('task-1');
  // The AI SDK's own spans sit under the turn they belong to, with our settings.
  const calls = spans.filter((span) => span.name === 'ai.streamText');
  expect(calls).toHaveLength(turns.length);
  const turnIds = new Set(turns.map((span) => span.spanContext().spanId));
  expect(calls.every((span) => turnIds.has(parentOf(span) ?? ''))).toBe(true);
  expect(calls.some((span) => 'ai.prompt' in span.attributes)).toBe(false); // recordInputs: false
  expect(calls.some((span) => 'ai.response.text' in span.attributes)).toBe(true);
  const tools = spans.filter((span) => span.name === 'ai.toolCall');
  expect(tools.map((span) => span.attributes['ai.toolCall.name']).sort()).toEqual([
    'create_task',
    'list_tasks',
  ]);
});

test('a run that fails ends its span and its failed turn’s with an error', async () => {
  const { exporter, tracer } = tracing();
  const failing = byAgent({
    lead: () => {
      throw new Error('the model is down');
    },
  });
  const { team } = testTeam(failing, {
    members: ['a'],
    telemetry: { tracer },
    agents: { lead: { maxRetries: 0 } },
  });
  await expect(team.run({ input: 'go' })).rejects.toThrow('the model is down');
  const spans = exporter.getFinishedSpans();
  const run = spans.find((span) => span.name === 'agent-teams.run');
  expect(run?.status).toMatchObject({ code: 2, message: expect.stringContaining('the model is down') });
  const turn = spans.find((span) => span.name === 'agent-teams.turn');
  expect(turn?.status).toMatchObject({ code: 2, message: 'the model is down' });
});

test('without a tracer the global provider’s is used; without telemetry nothing is traced', async () => {
  const global = tracing();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(global.exporter)] });
  trace.setGlobalTracerProvider(provider);
  try {
    await testTeam(script, { members: ['a'], telemetry: {} }).team.run({ input: 'go' });
    const names = global.exporter.getFinishedSpans().map((span) => span.name);
    expect(names.filter((name) => name === 'agent-teams.run')).toHaveLength(1);
    expect(names).toContain('ai.streamText');
    global.exporter.reset();
    await testTeam(script, { members: ['a'] }).team.run({ input: 'go' });
    expect(global.exporter.getFinishedSpans()).toEqual([]);
  } finally {
    trace.disable();
  }
});

test.each([
  [
    { tracr: {} },
    'Unknown option "tracr" for telemetry of the team t; the known ones are tracer, recordInputs, recordOutputs.',
  ],
  [{ tracer: {} }, 'telemetry.tracer of the team t must be an OpenTelemetry Tracer, not {}.'],
  [{ recordInputs: 'no' }, 'telemetry.recordInputs of the team t must be true or false, not "no".'],
  ['on', 'telemetry of the team t must be an object: { tracer?, recordInputs?, recordOutputs? }, not "on".'],
])('a wrong telemetry option %j is refused: %s', (telemetry, message) => {
  const error = (() => {
    try {
      testTeam(script, { telemetry: telemetry as never });
    } catch (caught) {
      return caught;
    }
  })();
  expect(isTeamError(error, 'invalid-option')).toBe(true);
  expect((error as Error).message).toBe(message);
});
