import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, FileStore, foldEvents, type TeamEvent, type TeamRunHandle } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import { describe, expect, test } from 'vitest';
import { STORES } from '../helpers/stores.js';
import { createTask, testTeam } from '../helpers/team.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

async function eventOf(run: TeamRunHandle, when: (event: TeamEvent) => boolean): Promise<TeamEvent> {
  for await (const event of run.events()) if (when(event)) return event;
  throw new Error('the run ended without that event');
}

/** A gate a script waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe.each(STORES)('the roster on the %s', (_, makeStore) => {
  test('a roster change in a transaction that throws is undone with the rest of it', async () => {
    const store = makeStore();
    await store.createTeam('u', { lead: 'lead', members: ['a'] });
    const failing = store.transact('u', ({ roster, board }) => {
      roster.join('z', { description: '', model: 'm', mode: 'default' });
      board.createTask({ title: 'For z', assignee: 'z' }, 'lead');
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    const after = await store.transact('u', ({ roster, board }) => ({
      names: roster.entries().map((entry) => entry.name),
      tasks: board.listTasks(),
      members: board.roster.members,
    }));
    expect(after).toEqual({ names: ['lead', 'a'], tasks: [], members: ['a'] });
  });

  test('a member added during the run joins the roster and does the work given to it', async () => {
    const joined = gate();
    const { team, of } = testTeam(
      async (call) => {
        if (call.agent === 'lead' && call.reason === 'start' && call.step === 0) {
          await joined.opened; // the lead plans once d is on the team
          return { toolCalls: [createTask({ title: 'Translate', assignee: 'd' })] };
        }
        return 'ok';
      },
      { members: ['a'], store: makeStore() },
    );
    const run = await team.start({ input: 'go' });
    const model = scriptedModel(() => 'Translated by d.');
    await run.addMember(
      new Agent({ name: 'd', model, instructions: 'You translate.', description: 'Translator' }),
    );
    // A model that cannot be resolved is refused before the roster changes.
    const keyless = new Agent({ name: 'k', model: 'nosuch/model', instructions: 'x' });
    await expect(run.addMember(keyless)).rejects.toMatchObject({ code: 'unknown-provider' });
    joined.open();
    const result = await run.result;
    expect(of('team:member-joined').map((event) => event.data)).toEqual([
      {
        member: 'd',
        description: 'Translator',
        model: 'scripted/scripted',
        mode: 'default',
        instructions: 'You translate.',
      },
    ]);
    expect(result.teamResult.tasks[0]).toMatchObject({
      status: 'completed',
      owner: 'd',
      result: 'Translated by d.',
    });
    expect(foldEvents(await team.store.readEvents(result.runId)).agents.get('d')).toMatchObject({
      role: 'member',
      turns: 1,
    });
    const roster = await team.store.transact('t', ({ roster }) => roster.entries());
    expect(roster.map((entry) => [entry.name, entry.status])).toEqual([
      ['lead', 'active'],
      ['a', 'active'],
      ['d', 'active'],
    ]);
    // After the run: refused, never left waiting.
    await expect(run.addMember(new Agent({ name: 'e', model, instructions: 'Late.' }))).rejects.toThrow(
      /has ended/,
    );
  });

  test('a removed member’s task goes back to the list and its unread messages are archived, never lost', async () => {
    const { team, of } = testTeam(
      (call) => {
        if (call.agent === 'lead' && call.reason === 'start' && call.step === 0)
          return { toolCalls: [createTask({ title: 'Check', assignee: 'a' })] };
        return call.agent === 'b' ? 'Checked by b.' : 'ok';
      },
      // a never finishes on its own: only its removal ends its turn.
      { members: ['a', 'b'], store: makeStore(), latencyMs: (call) => (call.agent === 'a' ? 600_000 : 0) },
    );
    const run = await team.start({ input: 'go' });
    await eventOf(run, (event) => event.type === 'team:task-claimed');
    const note = await run.send('a', 'Use the new style guide');
    await run.removeMember('a');
    const result = await run.result;
    expect(of('team:member-shutdown').map((event) => event.data)).toEqual([
      { member: 'a', force: true, reason: null, removed: true, requeued: ['task-1'], archived: [note.id] },
    ]);
    expect(result.teamResult.tasks[0]).toMatchObject({ status: 'completed', owner: 'b' });
    // The archive: a's inbox keeps the message, unread.
    const kept = await team.store.transact('t', ({ mailbox }) => mailbox.messages('a'));
    expect(kept).toMatchObject([{ id: note.id, content: 'Use the new style guide', readAt: null }]);
    await expect(
      team.store.transact('t', ({ mailbox }) => mailbox.send('user', 'a', 'Hello?')),
    ).rejects.toMatchObject({ code: 'member-shutdown' });
    // The run's log tells it: its fold (a viewer's, a resume's) has a gone.
    const folded = foldEvents(await team.store.readEvents(result.runId));
    expect(folded.agents.get('a')).toMatchObject({ status: 'removed', removed: true });
    const roster = await team.store.transact('t', ({ roster }) => roster.entries());
    expect(roster.find((entry) => entry.name === 'a')?.status).toBe('removed');
    await expect(run.removeMember('a')).rejects.toMatchObject({ code: 'run-ended' });
  });
});

test('the FileStore’s config.json lists each member with description, model, its own permission mode, status and when it joined', async () => {
  const root = tempFolder('agent-teams-roster-');
  // The lead's first turn lasts until the abort: the run is open for every change.
  const { team } = testTeam(() => 'ok', {
    members: ['a', 'b'],
    store: new FileStore({ root }),
    workspace: { root: tempFolder('agent-teams-roster-workspace-') },
    latencyMs: (call) => (call.agent === 'lead' ? 600_000 : 0),
    agents: { a: { description: 'Checks facts', permissionMode: 'bypass' } },
  });
  const run = await team.start({ input: 'go' });
  const d = new Agent({
    name: 'd',
    model: scriptedModel(() => 'ok'),
    instructions: 'You draw.',
    permissionMode: 'delegatedByTeamLead',
  });
  await run.addMember(d);
  await run.removeMember('b');
  run.abort('done');
  await run.result;
  const config = JSON.parse(readFileSync(path.join(root, 'teams/t/config.json'), 'utf8'));
  // The roster is the config's one record of who is on the team.
  expect(config.members).toBeUndefined();
  expect(config.departed).toBeUndefined();
  expect(config.roster).toEqual([
    expect.objectContaining({ name: 'lead', role: 'lead', status: 'active', mode: 'default' }),
    expect.objectContaining({
      name: 'a',
      role: 'member',
      description: 'Checks facts',
      model: 'scripted/scripted',
      mode: 'bypass',
      status: 'active',
    }),
    expect.objectContaining({ name: 'b', role: 'member', status: 'removed', mode: 'default' }),
    expect.objectContaining({
      name: 'd',
      role: 'member',
      description: 'You draw.',
      mode: 'delegatedByTeamLead',
      status: 'active',
    }),
  ]);
  for (const entry of config.roster) expect(Date.parse(entry.joinedAt)).not.toBeNaN();
});

test('a resume keeps the roster changes of the run: a member shut down stays shut down', async () => {
  const root = tempFolder('agent-teams-roster-');
  const make = () =>
    testTeam(() => 'ok', {
      members: ['a', 'b'],
      store: new FileStore({ root }),
      // The lead's planning takes its time, so the run can be stopped before it ends.
      latencyMs: (call) => (call.agent === 'lead' && call.reason === 'start' ? 600_000 : 0),
    });
  const first = make();
  const run = await first.team.start({ input: 'go' });
  await run.shutdown('b', { force: true });
  run.abort('stop for now');
  expect((await run.result).teamResult.stopReason).toBe('aborted');

  const second = make();
  const resumed = await second.team.start({ input: 'go', fresh: false });
  await expect(resumed.send('b', 'Back?')).rejects.toMatchObject({ code: 'member-shutdown' });
  resumed.abort('done');
  const result = await resumed.result;
  expect(result.teamResult.members.find((member) => member.name === 'b')?.status).toBe('shutdown');
  // The log has b's shutdown once: the resume did not log it again.
  const log = await second.team.store.readEvents(result.runId);
  expect(log.filter((event) => event.type === 'team:member-shutdown')).toHaveLength(1);
});

const reachable = await postgresReachable();
const postgres = postgresStores();

describe.skipIf(!reachable)('the PostgresStore', () => {
  test('keeps roster changes in the team’s row: another process sees who joined and who left', async () => {
    const store = postgres.make();
    await store.createTeam('r', { lead: 'lead', members: ['a', 'b'] });
    await store.transact('r', ({ roster }) => {
      roster.join('d', { description: 'Draws', model: 'scripted/scripted', mode: 'default' });
      roster.depart('b', { force: false, reason: 'done', removed: true });
    });
    const other = postgres.make(store.schema);
    const entries = await other.transact('r', ({ roster }) => roster.entries());
    expect(entries.map((entry) => `${entry.name}:${entry.status}`)).toEqual([
      'lead:active',
      'a:active',
      'b:removed',
      'd:active',
    ]);
    await expect(other.transact('r', ({ mailbox }) => mailbox.send('a', 'b', 'hi'))).rejects.toMatchObject({
      code: 'member-shutdown',
    });
    const task = await other.transact('r', ({ board }) => {
      board.createTask({ title: 'Sketch', assignee: 'd' }, 'lead');
      return board.claimTask('d');
    });
    expect(task).toMatchObject({ owner: 'd', status: 'in_progress' });
  });
});

test('a member that joined is brought back by a resume; one the resumed team does not define is removed, its task back on the list', async () => {
  const root = tempFolder('agent-teams-roster-');
  const joined = gate();
  const make = () =>
    testTeam(
      async (call) => {
        if (call.agent !== 'lead' || call.reason !== 'start' || call.step > 0) return 'ok';
        await joined.opened; // the lead plans once d is on the team
        return { toolCalls: [createTask({ title: 'Draw', assignee: 'd' })] };
      },
      {
        members: ['a'],
        store: new FileStore({ root }),
        // The lead's second step waits, so the run can be stopped with d's task on the list.
        latencyMs: (call) =>
          call.agent === 'lead' && call.reason === 'start' && call.step > 0 ? 600_000 : 0,
      },
    );
  const first = make();
  const run = await first.team.start({ input: 'go' });
  // d never answers in the first process: its turn holds the task until the abort.
  await run.addMember(
    new Agent({
      name: 'd',
      model: scriptedModel(() => 'Drawn.', { latencyMs: 600_000 }),
      instructions: 'Draw.',
    }),
  );
  joined.open();
  await eventOf(run, (event) => event.type === 'team:task-claimed');
  run.abort('stop for now');
  await run.result;

  const second = make();
  const resumed = await second.team.start({ input: 'go', fresh: false });
  await expect(resumed.send('d', 'Still drawing?')).rejects.toMatchObject({ code: 'member-shutdown' });
  resumed.abort('done');
  const result = await resumed.result;
  const gone = second.of('team:member-shutdown').map((event) => event.data);
  expect(gone).toEqual([expect.objectContaining({ member: 'd', removed: true, requeued: ['task-1'] })]);
  expect(result.teamResult.tasks[0]).toMatchObject({ status: 'pending', assignee: null });
  const roster = await second.team.store.transact('t', ({ roster }) => roster.entries());
  expect(roster.map((entry) => `${entry.name}:${entry.status}`)).toEqual([
    'lead:active',
    'a:active',
    'd:removed',
  ]);
});
