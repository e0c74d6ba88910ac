import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamStore } from 'agent-teams';
import {
  type FakeOpenAIServer,
  fakeOpenAIServer,
  type ScriptedCall,
  type ServedAnswer,
} from 'agent-teams/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { foldEvents } from '../../src/fold/apply-event.js';
import { summarizeRun } from '../../src/fold/run-summary.js';
import { seeds } from '../helpers/seeds.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores, randomSchema } from '../store/postgres/database.js';

// The suite of usage-kills-file.test.ts and usage-kills-postgres.test.ts (two files, so the two
// stores' kills run in parallel).
//
// Every token the model server served is counted: a run whose process is killed with SIGKILL
// at a seeded point and resumed in a new process ends with `usage` equal to what the fake
// server says it served. The server counts an answer once its last byte is handed to the
// connection; each step commits its usage as its answer arrives, before its tools run. What
// no design can count is an answer the server finished sending while the killed process had
// not yet committed it (it died in between): the test names each such answer and checks it
// is one (served to the killed process, at most one per agent, which has one call in flight
// at a time), and reports their tokens beside the total, so the gap is measured, not hidden.

export const reachable = await postgresReachable();
const postgres = postgresStores();
const fixture = fileURLToPath(new URL('./fixtures/usage-run.mjs', import.meta.url));

const PLAN = [
  { title: 'Survey', assignee: 'a' },
  { title: 'Gather', assignee: 'b' },
  { title: 'Sketch', assignee: 'c' },
  { title: 'Analyse', dependsOn: ['task-1', 'task-2'] },
  { title: 'Draft', dependsOn: ['task-3'] },
  { title: 'Finish', dependsOn: ['task-4', 'task-5'] },
];

/** The boss plans six tasks; each member turn on a task takes two model calls: a note, then its result. */
function script(call: ScriptedCall) {
  if (call.agent === 'boss') {
    if (call.reason === 'start')
      return call.step === 0
        ? { toolCalls: PLAN.map((input) => ({ toolName: 'create_task', input })) }
        : 'Planned.';
    return call.reason === 'synthesis' ? 'All done.' : 'Noted.';
  }
  if (call.reason !== 'task') return 'ok';
  if (call.step === 0)
    return { toolCalls: [{ toolName: 'update_task', input: { taskId: call.taskId, note: 'on it' } }] };
  return `done ${call.taskId}`;
}

interface Place {
  readonly arg: string;
  readonly store: () => TeamStore;
}
const places = {
  file: (): Place => {
    const root = tempFolder('agent-teams-usage-');
    return { arg: `file:${root}`, store: () => new FileStore({ root }) };
  },
  postgres: (): Place => {
    const schema = randomSchema();
    return { arg: `pg:${schema}`, store: () => postgres.make(schema) };
  },
};

function start(mode: 'fresh' | 'resume', place: Place, server: FakeOpenAIServer, watched: boolean) {
  const child: ChildProcess = spawn(process.execPath, [fixture, mode, place.arg], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      USAGE_MODEL_URL: server.url,
      USAGE_POSTGRES_URL: POSTGRES_URL,
      USAGE_WATCHED: watched ? '1' : '0',
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, done, output: () => output };
}

async function logOf(store: TeamStore): Promise<TeamEvent[]> {
  const runId = (await store.getTeam('usage').catch(() => undefined))?.runId;
  return runId ? store.readEvents(runId).catch(() => []) : [];
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

/** Runs fresh and kills the process with SIGKILL once the log holds `killAt` events; answers whether it was cut. */
async function killedRun(place: Place, server: FakeOpenAIServer, watched: boolean, killAt: number) {
  const store = place.store();
  const run = start('fresh', place, server, watched);
  try {
    for (;;) {
      if (run.child.exitCode !== null) break;
      if ((await logOf(store)).length >= killAt) {
        run.child.kill('SIGKILL');
        break;
      }
      await pause();
    }
    await run.done;
    return !(await logOf(store)).some((event) => event.type === 'team:complete');
  } finally {
    await store.close();
  }
}

/** The usage the run's log adds up to, as `run.usage`, `agent-teams runs` and the Studio read it. */
async function counted(place: Place) {
  const store = place.store();
  try {
    const log = await logOf(store);
    const [listing] = await store.listRuns({ team: 'usage' });
    const state = foldEvents(log);
    const complete = log.findLast((event) => event.type === 'team:complete') as
      | TeamEvent<'team:complete'>
      | undefined;
    const ids = log.flatMap((event) => (event.type === 'team:turn-usage' ? [event.data.responseId] : []));
    return {
      log,
      usage: state.usage,
      listed: listing ? summarizeRun(listing, log).totalTokens : undefined,
      ids,
      stopReason: complete?.data.stopReason,
    };
  } finally {
    await store.close();
  }
}

const tokens = (answers: readonly ServedAnswer[]) =>
  answers.reduce((sum, answer) => sum + answer.inputTokens + answer.outputTokens, 0);

/** The figures of every trial of a kind, printed once its trials are done (docs/reliability.md quotes them). */
const figures: { seed: number; served: number; counted: number; missing: string[] }[] = [];

export function suite(kind: keyof typeof places) {
  afterAll(() => {
    const served = figures.reduce((sum, each) => sum + each.served, 0);
    const missed = figures.reduce((sum, each) => sum + each.served - each.counted, 0);
    const cut = figures.filter((each) => each.missing.length > 0);
    console.log(
      `usage after SIGKILL (${kind}): ${figures.length} trials, ${served} tokens served, ${served - missed} counted, ` +
        `${missed} missing (${cut.length} trials: ${cut.map((each) => `seed ${each.seed}: ${each.missing.join(', ')}`).join('; ') || 'none'})`,
    );
  });

  describe.concurrent(`usage counted across kills (${kind})`, () => {
    // The same run uninterrupted: how long its log is, so the kill points spread over it.
    const reference = (async () => {
      const server = await fakeOpenAIServer(script, { latencyMs: 20 });
      const place = places[kind]();
      try {
        const run = start('fresh', place, server, false);
        expect(await run.done, run.output()).toBe(0);
        const { log, usage } = await counted(place);
        expect(usage.totalTokens).toBe(server.served.totalTokens);
        return log.length;
      } finally {
        await server.close();
      }
    })();

    test.concurrent.each(seeds(20, 'KILL_SEEDS'))(
      'seed %i: killed and resumed, usage equals what the server served',
      async (seed) => {
        const length = await reference;
        const watched = seed % 2 === 0;
        const killAt = 3 + ((seed * 7) % Math.max(1, length - 5));
        const server = await fakeOpenAIServer(script, { latencyMs: 20 });
        const place = places[kind]();
        try {
          const cut = await killedRun(place, server, watched, killAt);
          // What was served to the killed process.
          const beforeResume = server.answers.length;
          if (cut) {
            const resumed = start('resume', place, server, watched);
            expect(await resumed.done, resumed.output()).toBe(0);
          }
          const { usage, listed, ids, stopReason } = await counted(place);
          expect(stopReason).toBe('completed');
          const served = server.served;
          // Never more than served: each answer is counted once, under its own id.
          expect(new Set(ids).size).toBe(ids.length);
          const answered = new Set(server.answers.map((answer) => answer.responseId));
          expect(ids.filter((id) => id === undefined || !answered.has(id))).toEqual([]);
          expect(usage.totalTokens).toBe(
            tokens(server.answers.filter((answer) => ids.includes(answer.responseId))),
          );
          expect(listed).toBe(usage.totalTokens);
          // What is not counted was in flight when the process died: served to it, at most one per agent.
          const logged = new Set(ids);
          const missing = server.answers.filter((answer) => !logged.has(answer.responseId));
          const positions = missing.map((answer) => server.answers.indexOf(answer));
          expect(positions.every((position) => position < beforeResume)).toBe(true);
          const agents = missing.map((answer) => answer.call.agent);
          expect(new Set(agents).size).toBe(agents.length);
          figures.push({
            seed,
            served: served.totalTokens,
            counted: usage.totalTokens,
            missing: missing.map(
              (answer) =>
                `${answer.call.agent} turn ${answer.call.turn} step ${answer.call.step} (${answer.inputTokens + answer.outputTokens} tokens)`,
            ),
          });
          expect(served.totalTokens - usage.totalTokens).toBe(tokens(missing));
        } finally {
          await server.close();
        }
      },
      120_000,
    );
  });
}
