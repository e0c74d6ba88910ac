import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamStore } from 'agent-teams';
import { fakeOpenAIServer } from 'agent-teams/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { answerRequest, joinMember, requestShutdown, sendAsUser } from '../../src/run/control.js';
import { seeds } from '../helpers/seeds.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores, randomSchema } from '../store/postgres/database.js';

// The suite of lifecycle-kills-file.test.ts and lifecycle-kills-postgres.test.ts (two files,
// so the two stores' kills run in parallel).
//
// The run's decisions are in its log: a run killed with SIGKILL at seeded points around a
// forced shutdown, a removal, a member joining, a request answered, its budget reached, or
// a synthesis in parts, and resumed in a new process, ends in the same state as the same run
// uninterrupted, and no decision of it is logged twice. The controls come from this process,
// as from another shell, through the store.

const fixture = fileURLToPath(new URL('./fixtures/lifecycle-run.mjs', import.meta.url));
export const reachable = await postgresReachable();
const postgres = postgresStores();
const drawer = await fakeOpenAIServer(() => 'Drawn.');
afterAll(() => drawer.close());

type Scenario = 'shutdown' | 'remove' | 'join' | 'request' | 'budget' | 'synthesis';

interface Place {
  readonly arg: string;
  readonly store: () => TeamStore;
}
const places = {
  file: (): Place => {
    const root = tempFolder('agent-teams-life-');
    return { arg: `file:${root}`, store: () => new FileStore({ root }) };
  },
  postgres: (): Place => {
    const schema = randomSchema();
    return { arg: `pg:${schema}`, store: () => postgres.make(schema) };
  },
};

function start(scenario: Scenario, mode: 'fresh' | 'resume', place: Place) {
  const child: ChildProcess = spawn(process.execPath, [fixture, scenario, mode, place.arg], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LIFE_POSTGRES_URL: POSTGRES_URL, OPENAI_COMPATIBLE_BASE_URL: drawer.url },
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
  const runId = (await store.getTeam('life').catch(() => undefined))?.runId;
  return runId ? store.readEvents(runId).catch(() => []) : [];
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * What the test does to the run from outside, once the run has reached the point that calls
 * for it (as the person would, from another shell); `undefined` for the scenarios without.
 */
const controls: Partial<
  Record<
    Scenario,
    { when: (event: TeamEvent) => boolean; act: (store: TeamStore, log: TeamEvent[]) => Promise<void> }
  >
> = {
  shutdown: {
    when: (event) => event.type === 'team:task-claimed' && event.data.member === 'b',
    act: (store) => requestShutdown(store, 'life', 'b', { force: true, reason: 'not needed' }),
  },
  remove: {
    when: (event) => event.type === 'team:task-claimed' && event.data.member === 'b',
    act: (store) => requestShutdown(store, 'life', 'b', { force: true, reason: null, removed: true }),
  },
  join: {
    when: (event) => event.type === 'team:task-claimed' && event.data.member === 'a',
    act: async (store) => {
      const d = {
        name: 'd',
        instructions: 'Draw.',
        model: 'openai-compatible/drawer',
        description: 'Draws',
        mode: 'default',
      };
      await joinMember(store, 'life', d);
      await sendAsUser(store, 'life', 'd', 'Draw a map');
    },
  },
  request: {
    when: (event) => event.type === 'team:request-opened',
    act: async (store, log) => {
      const opened = log.find(
        (event) => event.type === 'team:request-opened',
      ) as TeamEvent<'team:request-opened'>;
      await answerRequest(store, 'life', opened.data.requestId, { approve: true, feedback: 'Go.' });
    },
  },
};

/** The event the kills are placed around, in a run without them. */
const keyOf: Record<Scenario, (event: TeamEvent) => boolean> = {
  shutdown: (event) => event.type === 'team:shutdown-requested',
  remove: (event) => event.type === 'team:shutdown-requested',
  join: (event) => event.type === 'team:member-joined',
  request: (event) => event.type === 'team:request-answered',
  budget: (event) => event.type === 'team:budget-reached',
  synthesis: (event) => event.type === 'team:synthesis-planned',
};

/**
 * Runs the scenario fresh, making its control when its point comes, and kills the process
 * with SIGKILL once the log holds `killAt` events (never, without one); answers the log then.
 */
async function freshRun(scenario: Scenario, place: Place, killAt?: number): Promise<boolean> {
  const store = place.store();
  const run = start(scenario, 'fresh', place);
  const control = controls[scenario];
  let controlled = control === undefined;
  try {
    for (;;) {
      if (run.child.exitCode !== null) break;
      const log = await logOf(store);
      if (!controlled && control && log.some(control.when)) {
        await control.act(store, log);
        controlled = true;
      }
      if (killAt !== undefined && log.length >= killAt && controlled) {
        run.child.kill('SIGKILL');
        break;
      }
      await pause();
    }
    await run.done;
    // Killed before its end (a run that ended first has nothing to resume).
    return !(await logOf(store)).some((event) => event.type === 'team:complete');
  } finally {
    await store.close();
  }
}

/** The run's end as a person reads it: the tasks, the roster, the answer; nothing that depends on timing. */
async function finalState(place: Place) {
  const store = place.store();
  try {
    const log = await logOf(store);
    const complete = log.findLast((event) => event.type === 'team:complete') as
      | TeamEvent<'team:complete'>
      | undefined;
    const lastSynthesis = log.findLast(
      (event) => event.type === 'team:member-finished' && event.data.reason === 'synthesis',
    ) as TeamEvent<'team:member-finished'> | undefined;
    const state = await store.transact('life', ({ board, mailbox, roster, requests }) => ({
      tasks: board.listTasks().map((task) => `${task.id} ${task.title} ${task.status} ${task.result ?? ''}`),
      roster: roster.entries().map((entry) => `${entry.name} ${entry.status}`),
      unread: ['boss', 'a', 'b', 'c', 'd'].flatMap((agent) =>
        roster.entries().some((entry) => entry.name === agent)
          ? mailbox.unread(agent).map((message) => message.kind)
          : [],
      ),
      requests: [...requests.view().requests.values()].map(
        (request) => `${request.id} ${request.status} ${request.approve}`,
      ),
    }));
    return { stopReason: complete?.data.stopReason, output: lastSynthesis?.data.output ?? '', ...state };
  } finally {
    await store.close();
  }
}

/** The decisions of a run: no two of them alike (the same event, logged twice, a resume's repeat). */
const DECISIONS = new Set([
  'team:task-created',
  'team:task-completed',
  'team:shutdown-requested',
  'team:member-shutdown',
  'team:member-joined',
  'team:request-opened',
  'team:request-answered',
  'team:request-expired',
  'team:budget-reached',
  'team:run-ending',
  'team:synthesis-planned',
  'team:complete',
]);

function repeats(log: readonly TeamEvent[]): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const event of log) {
    if (!DECISIONS.has(event.type)) continue;
    const key = `${event.type} ${JSON.stringify(event.data)}`;
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
  return twice;
}

const SCENARIOS: Scenario[] = ['shutdown', 'remove', 'join', 'request', 'budget', 'synthesis'];

/**
 * The six scenarios, each on its seeds, on one kind of store. The scenarios run concurrently
 * too, so the project's maxConcurrency trials are always going: one scenario after another
 * left the slots idle while each scenario's last trials finished.
 */
export function suite(kind: keyof typeof places) {
  describe.concurrent.each(SCENARIOS)(`%s, killed and resumed (${kind})`, (scenario) => {
    // The same run uninterrupted: what every resumed run must end as, and where its decision falls.
    const reference = (async () => {
      const place = places[kind]();
      await freshRun(scenario, place);
      const store = place.store();
      const log = await logOf(store);
      await store.close();
      return { state: await finalState(place), key: log.findIndex(keyOf[scenario]) + 1, length: log.length };
    })();

    test.concurrent.each(seeds(20, 'KILL_SEEDS'))(
      'seed %i',
      async (seed) => {
        const { state, key, length } = await reference;
        expect(key).toBeGreaterThan(0);
        // Kill points from a few events before the decision to several after it, by seed.
        const killAt = Math.min(length - 2, Math.max(2, key - 3 + ((seed * 7) % 12)));
        const place = places[kind]();
        if (await freshRun(scenario, place, killAt)) await resume(scenario, place);
        expect(await finalState(place)).toEqual(state);
        const store = place.store();
        expect(repeats(await logOf(store))).toEqual([]);
        await store.close();
      },
      60_000,
    );
  });
}

/** Resumes the killed run in a new process, to its end. */
async function resume(scenario: Scenario, place: Place): Promise<void> {
  const resumed = start(scenario, 'resume', place);
  if (scenario === 'request') {
    // A request the kill left unanswered is answered by the person after the resume, as they would.
    const store = place.store();
    const control = controls.request;
    for (let code = resumed.child.exitCode; code === null; code = resumed.child.exitCode) {
      const log = await logOf(store);
      const open =
        log.some((event) => event.type === 'team:request-opened') &&
        !log.some((event) => event.type === 'team:request-answered');
      if (open && control) await control.act(store, log).catch(() => undefined);
      await pause();
    }
    await store.close();
  }
  expect(await resumed.done, resumed.output()).toBe(0);
}
