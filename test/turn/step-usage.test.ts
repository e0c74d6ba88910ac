import {
  Agent,
  type Team,
  Team as TeamClass,
  type TeamEvent,
  type TeamRunHandle,
  type TeamStore,
} from 'agent-teams';
import { manualClock, type ScriptedCall, scriptedModel } from 'agent-teams/testing';
import { describe, expect, test } from 'vitest';
import { summarizeRun } from '../../src/fold/run-summary.js';
import { STORES } from '../helpers/stores.js';
import { createTask, tool } from '../helpers/team.js';
import { until } from '../helpers/until.js';

// Every token a model answered with is counted, however the turn that asked for it ended: each
// step commits its usage as its answer arrives. The turns here get an answer at step 0 (a tool
// call) and then fail, are aborted, interrupted or timed out while their step 1 waits.

type Ending = 'fails' | 'is aborted' | 'is interrupted' | 'times out';

/** a's step 1 of its first turn: it throws (`fails`), or never answers (the others). */
function script(ending: Ending) {
  return (call: ScriptedCall) => {
    if (call.agent === 'lead') {
      if (call.reason === 'start' && call.step === 0)
        return { toolCalls: [createTask({ title: 'Measure', assignee: 'a' })] };
      return call.reason === 'synthesis' ? 'Measured.' : 'ok';
    }
    if (call.turn !== 1) return '4 m.';
    if (call.step === 0) return { text: 'Looking.', toolCalls: [tool('list_tasks')] };
    if (ending === 'fails') throw new Error('The model is down');
    return new Promise<string>(() => {});
  };
}

function team(ending: Ending, store: TeamStore, watched: boolean) {
  const clock = manualClock();
  const model = scriptedModel(script(ending));
  const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.`, maxRetries: 0 });
  const made: Team = new TeamClass({
    name: 'u',
    lead: agent('lead'),
    members: [agent('a')],
    store,
    clock,
    turnTimeoutMs: 60_000,
    errorHandling: { onAgentFailure: 'skip' },
  });
  // A listener of live text is someone watching: the turns stream. Without one they do not.
  if (watched) made.on('team:text-delta', () => {});
  return { team: made, model, clock };
}

const STOPS = {
  fails: 'stalled',
  'is aborted': 'aborted',
  'is interrupted': 'completed',
  'times out': 'stalled',
} as const satisfies Record<Ending, string>;
const ENDINGS = Object.keys(STOPS) as Ending[];

describe.each(STORES)('on the %s', (_, makeStore) => {
  describe.each([
    ['watched (streamed)', true],
    ['not watched (plain calls)', false],
  ] as const)('%s', (_, watched) => {
    test.each(ENDINGS)(
      'a turn that %s after one answered step counts that step: usage equals what the model served',
      async (ending) => {
        const { team: made, model, clock } = team(ending, makeStore(), watched);
        const run: TeamRunHandle = await made.start({ input: 'Measure it' });
        // a's step 1 is asked: its step 0 is committed by then, before its tool even ran.
        await until(() => model.calls.some((call) => call.agent === 'a' && call.step === 1));
        const before = await made.store.readEvents(run.runId);
        const firstStep = before.find(
          (event) => event.type === 'team:turn-usage' && event.data.member === 'a',
        ) as TeamEvent<'team:turn-usage'> | undefined;
        expect(firstStep?.data).toMatchObject({ turn: 1, step: 0, model: 'scripted/scripted' });
        if (ending === 'is aborted') run.abort('enough');
        if (ending === 'is interrupted') await run.interrupt('a', 'Give me the size now.');
        if (ending === 'times out') clock.advance(60_000);
        const result = await run.result;
        const events = await made.store.readEvents(run.runId);
        // A failed member's task is left to nobody here (the run stalls); an interrupted one goes on.
        expect(result.teamResult.stopReason).toBe(STOPS[ending]);
        const finished = events.find(
          (event) =>
            event.type === 'team:member-finished' && event.data.member === 'a' && event.data.turn === 1,
        ) as TeamEvent<'team:member-finished'> | undefined;
        if (ending === 'fails') expect(finished?.data.error).toBe('The model is down');
        if (ending === 'times out') expect(finished?.data.error).toContain('turnTimeoutMs');
        // Every answer the model handed over is counted, to the token; the step that never
        // answered is not (nothing was served for it).
        expect(model.served.responses).toBe(model.calls.length - 1);
        // Streamed only for someone watching; plain calls otherwise.
        expect([model.doStreamCalls.length, model.doGenerateCalls.length]).toEqual(
          watched ? [model.calls.length, 0] : [0, model.calls.length],
        );
        expect(result.usage.total.totalTokens).toBe(model.served.totalTokens);
        expect(result.usage.total.inputTokens).toBe(model.served.inputTokens);
        const ofA = events.filter(
          (event): event is TeamEvent<'team:turn-usage'> =>
            event.type === 'team:turn-usage' && event.data.member === 'a',
        );
        expect(result.usage.byAgent.a?.totalTokens).toBe(
          ofA.reduce((sum, event) => sum + event.data.usage.totalTokens, 0),
        );
        // The step's text and call went with its usage; its tool's answer with the turn's end.
        const TRANSCRIPT = new Set([
          'team:turn-prompt',
          'team:turn-text',
          'team:tool-called',
          'team:tool-result',
        ]);
        const transcript = events.filter(
          (event) =>
            TRANSCRIPT.has(event.type) &&
            (event.data as { agent: string; turn: number }).agent === 'a' &&
            (event.data as { turn: number }).turn === 1,
        );
        expect(transcript.map((event) => event.type)).toEqual([
          'team:turn-prompt',
          'team:turn-text',
          'team:tool-called',
          'team:tool-result',
        ]);
        // What a reader of the log (the CLI, the Studio) sums is the run's usage.
        const logged = events.filter((event) => event.type === 'team:turn-usage');
        expect(logged.reduce((sum, event) => sum + event.data.usage.totalTokens, 0)).toBe(
          model.served.totalTokens,
        );
        // And what `agent-teams runs` and the Studio's run list show of it.
        const [listing] = await made.store.listRuns({ team: 'u' });
        expect(listing && summarizeRun(listing, events).totalTokens).toBe(model.served.totalTokens);
      },
    );
  });
});
