import type { Team, TeamEvent, TeamRunHandle, TeamRunResult, TeamStore } from 'agent-teams';
import type { ScriptedCall, ScriptedReply } from 'agent-teams/testing';
import { byAgent, createTask, type TestTeamOptions, testTeam, tool } from '../helpers/team.js';

/** What a user sees of a run: how it ended, each task's status and result, the answer. */
export interface Outcome {
  readonly stopReason: string;
  readonly tasks: readonly (readonly [string, string, string | null])[];
  readonly output: string;
  /** What the scenario checks besides (a property of the events that must always hold). */
  readonly checks: Readonly<Record<string, unknown>>;
}

export interface Scenario {
  readonly name: string;
  readonly scripts: Record<string, (call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>>;
  readonly options?: Omit<TestTeamOptions, 'store'>;
  /** Something the test does while the run goes (e.g. abort it). */
  readonly during?: (run: TeamRunHandle, event: TeamEvent) => void;
  readonly checks?: (events: readonly TeamEvent[]) => Record<string, unknown>;
  readonly expected: Outcome;
}

const plan =
  (...tasks: Record<string, unknown>[]) =>
  (call: ScriptedCall): ScriptedReply => {
    if (call.reason === 'synthesis') return 'Final answer.';
    if (call.reason === 'start' && call.step === 0)
      return { toolCalls: tasks.map((task) => createTask(task)) };
    return 'ok';
  };

const byTitle = (call: ScriptedCall) => (call.step === 0 ? `done ${call.taskId}` : 'ok');
/** A model call that never answers: the turn ends when it is cut (an abort, a timeout). */
const untilCut = () => new Promise<ScriptedReply>(() => {});
const types = (events: readonly TeamEvent[], type: TeamEvent['type']) =>
  events.filter((e) => e.type === type);
const reasons = (events: readonly TeamEvent[]) =>
  [
    ...new Set(
      types(events, 'team:member-started').map((e) => (e as TeamEvent<'team:member-started'>).data.reason),
    ),
  ].sort();

/** The most members working at once, from the events. */
function peak(events: readonly TeamEvent[]): number {
  let working = 0;
  let most = 0;
  for (const event of events) {
    if (event.type === 'team:member-started' && event.data.role === 'member')
      most = Math.max(most, ++working);
    if (event.type === 'team:member-finished' && event.data.role === 'member') working--;
  }
  return most;
}

const done = (...ids: string[]) => ids.map((id) => [id, 'completed', `done ${id}`] as const);

export const scenarios: Scenario[] = [
  {
    name: 'two tasks, one after the other',
    scripts: {
      lead: plan({ title: 'A' }, { title: 'B', dependsOn: ['task-1'] }),
      a: byTitle,
      b: byTitle,
      c: byTitle,
    },
    checks: (events) => ({ memberTurns: types(events, 'team:member-started').length - 2 }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1', 'task-2'),
      output: 'Final answer.',
      checks: { memberTurns: 2 },
    },
  },
  {
    name: 'a pool of two members over six tasks',
    scripts: {
      lead: plan(...['1', '2', '3', '4', '5', '6'].map((n) => ({ title: n }))),
      a: byTitle,
      b: byTitle,
      c: byTitle,
    },
    options: { maxConcurrentMembers: 2 },
    checks: (events) => ({ peak: peak(events) <= 2 }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6'),
      output: 'Final answer.',
      checks: { peak: true },
    },
  },
  {
    name: 'a member’s message wakes the lead',
    scripts: {
      lead: (call) => (call.reason === 'message' ? 'Noted.' : plan({ title: 'A', assignee: 'a' })(call)),
      a: (call) =>
        call.step === 0
          ? { toolCalls: [tool('send_message', { to: 'lead', content: 'Starting A' })] }
          : 'done task-1',
    },
    // The lead plans in one step, so a's message always finds it between turns (a message
    // that came while a turn ran would be given to that turn, between its steps).
    options: { agents: { lead: { maxIterations: 1 } } },
    checks: (events) => ({ reasons: reasons(events) }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1'),
      output: 'Final answer.',
      checks: { reasons: ['message', 'start', 'synthesis', 'task'] },
    },
  },
  {
    name: 'a message to a member wakes it, and its reply goes back automatically',
    scripts: {
      lead: (call) =>
        call.reason === 'start' && call.step === 0
          ? {
              toolCalls: [
                createTask({ title: 'A', assignee: 'a' }),
                tool('send_message', { to: 'b', content: 'Ready?' }),
              ],
            }
          : plan()(call),
      a: byTitle,
      b: () => 'Ready.',
    },
    checks: (events) => ({
      replies: types(events, 'team:message-sent')
        .map((e) => (e as TeamEvent<'team:message-sent'>).data)
        // Replies only: the idle notices to the lead are automatic too.
        .filter((data) => data.automatic && data.kind !== 'idle_notification')
        .map((data) => `${data.from}>${data.to.join()}:${data.content}`),
    }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1'),
      output: 'Final answer.',
      checks: { replies: ['b>lead:Ready.'] },
    },
  },
  {
    name: 'a stalled turn lets the lead assign what nobody may take',
    scripts: {
      lead: (call) =>
        call.reason === 'stalled' && call.step === 0
          ? { toolCalls: [tool('assign_task', { taskId: 'task-1', assignee: 'b' })] }
          : plan({ title: 'A' })(call),
      a: byTitle,
      b: byTitle,
    },
    options: { selfClaim: false },
    checks: (events) => ({ reasons: reasons(events) }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1'),
      output: 'Final answer.',
      checks: { reasons: ['stalled', 'start', 'synthesis', 'task'] },
    },
  },
  {
    name: 'a stalled turn that changes nothing ends the run stalled',
    scripts: { lead: plan({ title: 'A' }), a: byTitle, b: byTitle },
    options: { selfClaim: false },
    expected: {
      stopReason: 'stalled',
      tasks: [['task-1', 'pending', null]],
      output: 'Final answer.',
      checks: {},
    },
  },
  {
    name: 'members out of turns end the run at the turn limit',
    scripts: { lead: plan({ title: 'A' }), a: () => '', b: () => '' },
    options: { maxTurnsPerMember: 1, members: ['a', 'b'] },
    checks: (events) => ({ memberTurns: types(events, 'team:member-started').length - 3 }),
    expected: {
      stopReason: 'turn-limit',
      tasks: [['task-1', 'pending', null]],
      output: 'Final answer.',
      checks: { memberTurns: 2 },
    },
  },
  {
    name: 'a member that fails fails the run, with nothing left in progress',
    scripts: {
      lead: plan({ title: 'A', assignee: 'a' }),
      a: () => {
        throw new Error('model down');
      },
    },
    expected: { stopReason: 'failed', tasks: [['task-1', 'pending', null]], output: '', checks: {} },
  },
  {
    name: 'with skip, a failed member’s task goes back and another does it',
    scripts: {
      lead: plan({ title: 'A' }),
      a: () => {
        throw new Error('model down');
      },
      b: byTitle,
    },
    options: { errorHandling: { onAgentFailure: 'skip' }, members: ['a', 'b'], maxConcurrentMembers: 1 },
    expected: { stopReason: 'completed', tasks: done('task-1'), output: 'Final answer.', checks: {} },
  },
  {
    name: 'an abort stops every turn and leaves nothing in progress',
    // The members' model calls answer nothing: only the abort ends their turns (a reply
    // could otherwise complete a task before the abort's commit, which is no less right).
    scripts: { lead: plan({ title: 'A' }, { title: 'B' }), a: untilCut, b: untilCut, c: untilCut },
    during: (run, event) => {
      if (event.type === 'team:task-created' && event.data.task.id === 'task-2') run.abort('enough');
    },
    checks: (events) => ({
      inProgressAtEnd: (events.at(-1) as TeamEvent<'team:complete'>).data.tasks.inProgress,
    }),
    expected: {
      stopReason: 'aborted',
      tasks: [
        ['task-1', 'pending', null],
        ['task-2', 'pending', null],
      ],
      output: '',
      checks: { inProgressAtEnd: 0 },
    },
  },
  {
    name: 'members that never call a tool still finish their tasks (the fallback)',
    scripts: {
      lead: plan({ title: 'A' }, { title: 'B' }),
      a: (call) => `done ${call.taskId}`,
      b: (call) => `done ${call.taskId}`,
    },
    options: { members: ['a', 'b'] },
    expected: {
      stopReason: 'completed',
      tasks: done('task-1', 'task-2'),
      output: 'Final answer.',
      checks: {},
    },
  },
  {
    name: 'a task claimed late in a turn is not completed with that turn’s reply',
    scripts: {
      lead: plan({ title: 'A', assignee: 'a' }, { title: 'B', assignee: 'a' }),
      a: (call) => {
        if (call.taskId === 'task-1' && call.step === 0) {
          return {
            toolCalls: [
              tool('update_task', { taskId: 'task-1', status: 'completed', result: 'done task-1' }),
              tool('claim_task', { taskId: 'task-2' }),
            ],
          };
        }
        return call.taskId === 'task-1' ? 'I finished A.' : `done ${call.taskId}`;
      },
    },
    options: { members: ['a'] },
    checks: (events) => ({
      secondTurn: types(events, 'team:member-started')
        .map((e) => (e as TeamEvent<'team:member-started'>).data)
        .filter((data) => data.member === 'a')
        .map((data) => data.taskId),
    }),
    expected: {
      stopReason: 'completed',
      tasks: done('task-1', 'task-2'),
      output: 'Final answer.',
      checks: { secondTurn: ['task-1', 'task-2'] },
    },
  },
  {
    name: 'a lead that plans nothing answers at once',
    scripts: { lead: () => 'Just this.' },
    expected: { stopReason: 'no-tasks', tasks: [], output: 'Just this.', checks: {} },
  },
];

/** Runs a scenario on a store and answers what a user would see of it. */
/** How a scenario's turns run: in this process (default), or on workers `start` starts for the team. */
export interface ScenarioExecutor {
  readonly executor: 'workers';
  readonly start: (team: Team) => Promise<{ stop(): Promise<void> }>;
}

export async function outcomeOf(
  scenario: Scenario,
  store: TeamStore,
  workers?: ScenarioExecutor,
): Promise<Outcome> {
  const executor = workers ? { executor: workers.executor } : {};
  const { team } = testTeam(byAgent(scenario.scripts), { ...scenario.options, ...executor, store });
  const worker = await workers?.start(team);
  try {
    return await outcomeOfTeam(scenario, team);
  } finally {
    await worker?.stop();
  }
}

async function outcomeOfTeam(scenario: Scenario, team: Team): Promise<Outcome> {
  const run = await team.start({ input: 'go' });
  const events: TeamEvent[] = [];
  for await (const event of run.events()) {
    events.push(event);
    scenario.during?.(run, event);
  }
  let result: TeamRunResult | undefined;
  try {
    result = await run.result;
  } catch (error) {
    result = (error as { details?: { result?: TeamRunResult } }).details?.result;
    if (!result) throw error;
  }
  return {
    stopReason: result.teamResult.stopReason,
    tasks: result.teamResult.tasks.map((task) => [task.id, task.status, task.result] as const),
    output: result.output,
    checks: scenario.checks?.(events) ?? {},
  };
}
