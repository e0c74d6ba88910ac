import path from 'node:path';
import {
  FileStore,
  isTeamError,
  MemoryStore,
  type TeamEvent,
  type TeamEventListener,
  type TeamRules,
  type TeamStore,
  type TransactOptions,
} from 'agent-teams';
import { manualClock, type ScriptedCall } from 'agent-teams/testing';
import { expect, test } from 'vitest';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { until } from '../helpers/until.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

const reachable = await postgresReachable();
const postgres = postgresStores();
const stores: [string, () => TeamStore][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore({ root: path.join(tempFolder(), '.agent-teams') })],
  ...(reachable ? [['PostgresStore', () => postgres.make()] as [string, () => TeamStore]] : []),
];

const requestIn = (prompt: string) => prompt.match(/req-[\w-]+/)?.[0];

/** A lead that gives `a` one task and approves or rejects what it is asked. */
function lead(answer: (call: ScriptedCall, requestId: string) => Record<string, unknown> | undefined) {
  return (call: ScriptedCall) => {
    if (call.reason === 'start' && call.step === 0)
      return { toolCalls: [createTask({ title: 'Build', assignee: 'a' })] };
    if (call.reason === 'synthesis') return 'Final';
    const requestId = requestIn(call.prompt);
    const input = requestId && call.step === 0 ? answer(call, requestId) : undefined;
    return input ? { toolCalls: [tool('answer_request', { requestId, ...input })] } : 'ok';
  };
}

/** A member that plans first: it submits a plan, then does the work once it has the tools for it. */
const planner = (call: ScriptedCall) => {
  if (call.tools.includes('submit_plan'))
    return call.step === 0
      ? { toolCalls: [tool('submit_plan', { plan: `plan #${call.turn}` })] }
      : 'Submitted.';
  return call.reason === 'task' ? 'Built it.' : 'ok';
};

test.each(stores)(
  'on a %s a plan request goes to the lead, who approves it with answer_request; the member then works',
  async (_name, store) => {
    const { team, of, model } = testTeam(
      byAgent({ lead: lead(() => ({ approve: true, feedback: 'Go.' })), a: planner }),
      { members: ['a', 'b'], store: store(), agents: { a: { requirePlanApproval: true } } },
    );
    const result = await team.run({ input: 'go' });
    expect(result.teamResult.stopReason).toBe('completed');
    const [opened] = of('team:request-opened');
    expect(opened?.data).toMatchObject({ kind: 'plan', from: 'a', to: 'lead', taskId: 'task-1' });
    expect(opened?.data.subject).toContain('plan #1');
    expect(of('team:request-answered').map((event) => event.data)).toEqual([
      { requestId: opened?.data.requestId, approve: true, feedback: 'Go.', by: 'lead' },
    ]);
    // The plan turn offered no tool that changes anything; the next turn had the answer and the tools.
    const planTurn = model.calls.find((call) => call.agent === 'a' && call.turn === 1);
    expect(planTurn?.tools).not.toContain('update_task');
    const work = model.calls.find((call) => call.agent === 'a' && call.turn === 2);
    expect(work?.prompt).toContain('approved by lead. Feedback: Go.');
    expect(work?.tools).toContain('update_task');
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'Built it.' });
  },
);

test('a rejected plan comes back with the feedback, and the revised plan is approved', async () => {
  const { team, of, model } = testTeam(
    byAgent({
      lead: lead((call) =>
        call.prompt.includes('plan #1') ? { approve: false, feedback: 'Add tests.' } : { approve: true },
      ),
      a: planner,
    }),
    { members: ['a'], agents: { a: { requirePlanApproval: true } } },
  );
  const result = await team.run({ input: 'go' });
  expect(of('team:request-answered').map((event) => event.data.approve)).toEqual([false, true]);
  const revised = model.calls.find((call) => call.agent === 'a' && call.turn === 2);
  expect(revised?.tools).toContain('submit_plan');
  expect(revised?.prompt).toContain('rejected by lead. Feedback: Add tests.');
  expect(revised?.prompt).toMatch(/last plan was rejected/);
  expect(result.teamResult.tasks[0]?.status).toBe('completed');
});

test('a member waiting on its plan holds no slot: with one slot, another member works meanwhile', async () => {
  const { team, of } = testTeam(
    byAgent({
      lead: (call) => {
        if (call.reason === 'start' && call.step === 0)
          return {
            toolCalls: [
              createTask({ title: 'Build', assignee: 'a' }),
              createTask({ title: 'Other', assignee: 'b' }),
            ],
          };
        if (call.reason === 'synthesis') return 'Final';
        // The lead answers only once b's task is done: a waits until then.
        const requestId = requestIn(call.prompt);
        return requestId && call.step === 0 && call.prompt.includes('Requests waiting')
          ? { toolCalls: [tool('answer_request', { requestId, approve: true })] }
          : 'ok';
      },
      a: planner,
      b: () => 'Other done.',
    }),
    { members: ['a', 'b'], maxConcurrentMembers: 1, agents: { a: { requirePlanApproval: true } } },
  );
  const result = await team.run({ input: 'go' });
  expect(result.teamResult.stopReason).toBe('completed');
  const order = of('team:member-started')
    .filter((event) => event.data.role === 'member')
    .map((event) => `${event.data.member}#${event.data.turn}`);
  expect(order).toEqual(['a#1', 'b#1', 'a#2']);
});

test('with the lead out of turns a request is forwarded to the person, who answers with run.respond', async () => {
  const { team, of } = testTeam(byAgent({ lead: lead(() => undefined), a: planner }), {
    members: ['a'],
    maxLeadTurns: 1,
    agents: { a: { requirePlanApproval: true } },
  });
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type === 'team:request-opened') expect(event.data.to).toBe('lead');
    if (event.type !== 'team:request-forwarded') continue;
    expect(event.data.reason).toBe('the lead can take no more turns');
    const answered = await run.respond(event.data.requestId, { approve: true, feedback: 'Fine by me.' });
    expect(answered).toMatchObject({ status: 'answered', by: 'user', approve: true });
    // The first answer counts; another is refused and changes nothing.
    const again = await run.respond(event.data.requestId, { approve: false }).catch((error) => error);
    expect(isTeamError(again, 'request-closed')).toBe(true);
    expect(again.message).toContain('already approved by user');
  }
  const result = await run.result;
  expect(of('team:request-answered')).toHaveLength(1);
  expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'Built it.' });
});

/**
 * `inner` as a run sees it while another process answers a request: once `answerNext` is set,
 * the commit that logs the lead's first turn's end is followed at once by that answer,
 * committed on `inner` before the run's next transaction, and the answer never reaches the
 * run's subscription (as a late or missed notification). Each transaction first lets timers
 * run, so a run that loops on a stale decision fails by the test's timeout, not by blocking.
 */
function answeredElsewhere(inner: TeamStore) {
  const control: { answerNext?: () => Promise<unknown>; answered: boolean } = { answered: false };
  const leadDone = (events: readonly TeamEvent[]) =>
    events.some((event) => event.type === 'team:member-finished' && event.data.member === 'lead');
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'transact') {
        return async (name: string, fn: (rules: TeamRules) => unknown, options?: TransactOptions) => {
          await new Promise((resolve) => setImmediate(resolve));
          const value = await target.transact(name, fn, options);
          const answer = control.answerNext;
          if (answer && leadDone(await target.readEvents((await target.getTeam(name))?.runId ?? ''))) {
            control.answerNext = undefined;
            await answer();
            control.answered = true;
          }
          return value;
        };
      }
      if (key === 'subscribe') {
        return (name: string, listener: TeamEventListener) =>
          target.subscribe(name, (events) => {
            if (!events.some((event) => event.type === 'team:request-answered')) listener(events);
          });
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, control };
}

test.each(stores)(
  'on a %s a request another process answers after the lead’s last turn, unheard by the run: the run goes on with the answer, nothing forwarded',
  async (_name, makeStore) => {
    const inner = makeStore();
    const { store, control } = answeredElsewhere(inner);
    const { team, of } = testTeam(
      byAgent({
        lead: async (call) => {
          if (call.reason === 'start' && call.step === 0)
            return { toolCalls: [createTask({ title: 'Build', assignee: 'a' })] };
          if (call.reason === 'start') {
            // The plan is asked while the lead's one turn goes on; it is answered right after.
            await until(() => of('team:request-opened').length > 0);
            const requestId = of('team:request-opened')[0]?.data.requestId ?? '';
            control.answerNext = () =>
              inner.transact('t', ({ requests }) =>
                requests.answer(requestId, { approve: true, feedback: '' }, 'user'),
              );
          }
          return call.reason === 'synthesis' ? 'Final' : 'ok';
        },
        a: planner,
      }),
      { members: ['a'], maxLeadTurns: 1, store, agents: { a: { requirePlanApproval: true } } },
    );
    const result = await team.run({ input: 'go' });
    expect(control.answered).toBe(true);
    expect(result.teamResult.stopReason).toBe('completed');
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'Built it.' });
    // Answered before the run forwarded it: nothing went on to the person.
    expect(of('team:request-forwarded')).toEqual([]);
    expect(of('team:request-answered').map((event) => event.data.by)).toEqual(['user']);
  },
);

test('a plan nobody answers expires and the member goes ahead, as the event says (on the team’s clock: no real wait)', async () => {
  const clock = manualClock();
  const { team, of } = testTeam(byAgent({ lead: lead(() => undefined), a: planner }), {
    members: ['a'],
    planApprovalTimeoutMs: 120_000,
    agents: { a: { requirePlanApproval: true } },
    clock,
    store: new MemoryStore({ now: clock.date }),
  });
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) if (event.type === 'team:request-opened') break;
  clock.advance(119_999);
  expect(of('team:request-expired')).toEqual([]);
  clock.advance(1);
  const result = await run.result;
  expect(of('team:request-expired').map((event) => event.data)).toEqual([
    { requestId: 'req-a-1-1', approve: true, feedback: 'No answer within 120000 ms: the plan goes ahead.' },
  ]);
  expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'Built it.' });
});

test('run.respond refuses an unknown request and a bad answer, changing nothing', async () => {
  const { team, of } = testTeam(byAgent({ lead: lead(() => undefined), a: planner }), {
    members: ['a'],
    maxLeadTurns: 1,
    agents: { a: { requirePlanApproval: true } },
  });
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type !== 'team:request-opened') continue;
    const unknown = await run.respond('req-nobody-1-1', { approve: true }).catch((error) => error);
    expect(isTeamError(unknown, 'request-not-found')).toBe(true);
    const bad = await run.respond(event.data.requestId, { approve: 'yes' } as never).catch((error) => error);
    expect(isTeamError(bad, 'invalid-input')).toBe(true);
    const typo = await run
      .respond(event.data.requestId, { approve: true, feedbak: 'x' } as never)
      .catch((error) => error);
    expect(typo.message).toContain('Unknown option "feedbak"');
    await run.respond(event.data.requestId, { approve: true });
  }
  await run.result;
  expect(of('team:request-answered')).toHaveLength(1);
});

test('a member that replies with its plan in words, without submit_plan, has the reply submitted', async () => {
  const { team, of } = testTeam(
    byAgent({
      lead: lead(() => ({ approve: true })),
      a: (call) => (call.tools.includes('submit_plan') ? 'First the frame, then the roof.' : 'Built it.'),
    }),
    { members: ['a'], agents: { a: { requirePlanApproval: true } } },
  );
  const result = await team.run({ input: 'go' });
  expect(of('team:request-opened').map((event) => [event.data.requestId, event.data.subject])).toEqual([
    ['req-a-1-1', 'Plan for task-1:\nFirst the frame, then the roof.'],
  ]);
  // The plan was not taken for the task's result.
  expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', result: 'Built it.' });
});

test('a request to a lead that had its last turn without answering goes on to the person', async () => {
  const { team, of } = testTeam(byAgent({ lead: lead(() => undefined), a: planner }), {
    members: ['a'],
    maxLeadTurns: 2,
    agents: { a: { requirePlanApproval: true } },
  });
  const run = await team.start({ input: 'go' });
  for await (const event of run.events()) {
    if (event.type === 'team:request-forwarded') await run.respond(event.data.requestId, { approve: true });
  }
  const result = await run.result;
  expect(of('team:request-opened').map((event) => event.data.to)).toEqual(['lead']);
  expect(of('team:request-forwarded').map((event) => event.data)).toEqual([
    { requestId: 'req-a-1-1', to: 'user', reason: 'the lead can take no more turns' },
  ]);
  // The lead's second (last) turn was the one that showed it the request.
  expect(
    of('team:member-started')
      .filter((event) => event.data.member === 'lead')
      .map((e) => e.data.reason),
  ).toEqual(['start', 'message', 'synthesis']);
  expect(of('team:request-answered').map((event) => event.data.by)).toEqual(['user']);
  expect(result.teamResult.tasks[0]?.status).toBe('completed');
});
