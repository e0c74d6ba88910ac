import type { TeamEvent, TeamInfo, TeamStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };

/**
 * Texts a store must keep as they are: U+0000, lone surrogates (high, low, a pair reversed, a
 * high one at the end), a pair that is whole, U+FFFF and what an escaping of them could look
 * like, and SQL's quotes, in one string and alone.
 */
const HOSTILE_TEXTS = [
  'a \u0000 b',
  '\u0000',
  'lone \uD800 high',
  'lone \uDC00 low',
  'reversed \uDC00\uD800 pair',
  'ends high \uD83D',
  'whole 😀 pair',
  '\uFFFF',
  '\uFFFF0000 \uFFFFd800 \uFFFFffff',
  '\\u0000 %00 \\x00',
  // What ends a dollar-quoted literal in SQL, for a store that writes values into its statements.
  "dollar $q$ $q0$ $q1$ $$ $1 '; --",
];
const HOSTILE = HOSTILE_TEXTS.join(' | ');

/**
 * The behaviour every store must show: the same rules, atomic transactions, events after
 * commit, runs and their logs. Each store's test file runs it with its own factory, and a
 * `reopen` that answers another store object on the same storage (default: the same object).
 */
export function storeConformance(
  kind: string,
  makeStore: () => Promise<TeamStore> | TeamStore,
  reopen: (store: TeamStore) => TeamStore = (store) => store,
): void {
  describe(`${kind}: the TeamStore contract`, () => {
    test('createTeam makes a team known; again, it keeps the id and takes the new roster', async () => {
      const store = await makeStore();
      const made = await store.createTeam('newsroom', setup);
      expect(made).toMatchObject({ name: 'newsroom', lead: 'editor' });
      const names = (info: TeamInfo) =>
        info.roster.map((entry) => `${entry.role} ${entry.name} ${entry.status}`);
      expect(names(made)).toEqual(['lead editor active', 'member researcher active', 'member writer active']);
      expect(made.teamId).toMatch(/\S+/);
      const again = await store.createTeam('newsroom', {
        ...setup,
        members: ['researcher', 'writer', 'checker'],
      });
      expect(again.teamId).toBe(made.teamId);
      expect(names(again)).toEqual([...names(made), 'member checker active']);
      expect(await store.getTeam('newsroom')).toEqual(again);
      expect((await store.listTeams()).map((team) => team.name)).toEqual(['newsroom']);
      expect(await store.getTeam('other')).toBeUndefined();
      await store.close();
    });

    test('bad setups are refused and nothing is made', async () => {
      const store = await makeStore();
      await expect(store.createTeam('t', { lead: 'editor', members: [] })).rejects.toMatchObject({
        code: 'invalid-input',
      });
      await expect(store.createTeam('t', { ...setup, maxTasks: 0 })).rejects.toMatchObject({
        code: 'invalid-input',
      });
      expect(await store.getTeam('t')).toBeUndefined();
    });

    test('maxMembers bounds the members at once: a join past it is refused and changes nothing; a departure makes room', async () => {
      const store = await makeStore();
      await expect(store.createTeam('t', { ...setup, maxMembers: 1 })).rejects.toMatchObject({
        code: 'invalid-input',
      });
      const made = await store.createTeam('t', { ...setup, maxMembers: 3 });
      expect(made.maxMembers).toBe(3);
      const profile = { description: 'Checks facts', model: 'openai/gpt-5.5', mode: 'default' };
      await store.transact('t', ({ roster }) => roster.join('checker', profile));
      const refused = store.transact('t', ({ roster }) => roster.join('editor2', profile));
      await expect(refused).rejects.toMatchObject({
        code: 'member-limit',
        message:
          'The team t has 3 members, its most at once (maxMembers 3): retire one before editor2 can join.',
      });
      const names = async () =>
        (await store.transact('t', ({ roster }) => roster.entries())).map((entry) => entry.name);
      expect(await names()).toEqual(['editor', 'researcher', 'writer', 'checker']);
      await store.transact('t', ({ roster }) => {
        roster.depart('writer', { force: false, reason: null, removed: false });
        roster.join('editor2', profile);
      });
      expect(await names()).toEqual(['editor', 'researcher', 'writer', 'checker', 'editor2']);
      // A team made without a bound has none.
      expect((await store.createTeam('u', setup)).maxMembers).toBeNull();
      await store.close();
    });

    test('transact runs the rules and answers their value; an unknown team is an error', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const task = await store.transact('newsroom', ({ board }) =>
        board.createTask({ title: 'Research' }, 'editor'),
      );
      expect(task.id).toBe('task-1');
      const claimed = await store.transact('newsroom', ({ board }) => board.claimTask('researcher'));
      expect(claimed).toMatchObject({ id: 'task-1', status: 'in_progress', owner: 'researcher' });
      await expect(store.transact('nobody', () => 1)).rejects.toMatchObject({ code: 'team-not-found' });
    });

    test('every store refuses alike, with the rule’s own message', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      await store.transact('newsroom', ({ board }) => {
        board.createTask({ id: 'research', title: 'Research' }, 'editor');
        board.createTask({ id: 'draft', title: 'Draft', dependsOn: ['research'] }, 'editor');
      });
      await expect(
        store.transact('newsroom', ({ board }) => board.claimTask('writer', 'draft')),
      ).rejects.toThrow('The task draft waits for research to be completed');
    });

    test('a transaction that throws keeps nothing it did', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const seen: TeamEvent[] = [];
      store.subscribe('newsroom', (events) => seen.push(...events));
      await expect(
        store.transact('newsroom', ({ board, mailbox }) => {
          board.createTask({ title: 'One' }, 'editor');
          board.claimTask('writer');
          mailbox.send('writer', 'lead', 'started');
          board.createTask({ title: 'Bad', dependsOn: ['nope'] }, 'editor');
        }),
      ).rejects.toMatchObject({ code: 'dependency-not-found' });
      const after = await store.transact('newsroom', ({ board, mailbox }) => ({
        tasks: board.listTasks(),
        inbox: mailbox.messages('editor'),
        next: board.createTask({ title: 'Two' }, 'editor').id,
      }));
      expect(after.tasks).toEqual([]);
      expect(after.inbox).toEqual([]);
      expect(after.next).toBe('task-1');
      expect(seen.map((event) => event.type)).toEqual(['team:task-created']);
    });

    test('requests are rules: asked twice is one request, the first answer counts, the lead answers only its own', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      await store.startRun('newsroom');
      const timeouts = { planApprovalTimeoutMs: 1000, permissionTimeoutMs: 1000 };
      const draft = {
        kind: 'permission',
        to: 'user',
        subject: 'write x',
        taskId: null,
        tool: 'write_file',
        path: 'x',
        input: '{"path":"x","content":"y"}',
      } as const;
      const [first, again] = await store.transact('newsroom', ({ requests }) => [
        requests.open('writer', draft, 2, timeouts),
        requests.open('writer', draft, 2, timeouts),
      ]);
      expect(first?.id).toBe('req-writer-2-1');
      expect(again).toEqual(first);
      const asked = await store.transact('newsroom', ({ requests }) =>
        requests.open(
          'writer',
          { ...draft, kind: 'plan', to: 'lead', subject: 'plan', tool: null, path: null, input: null },
          2,
          timeouts,
        ),
      );
      expect(asked).toMatchObject({
        id: 'req-writer-2-2',
        kind: 'plan',
        defaultApprove: true,
        status: 'open',
      });
      // The lead answers only what is addressed to it; the person answers anything.
      await expect(
        store.transact('newsroom', ({ requests }) =>
          requests.answer('req-writer-2-1', { approve: true, feedback: '' }, 'editor'),
        ),
      ).rejects.toMatchObject({ code: 'invalid-input' });
      const answered = await store.transact('newsroom', ({ requests }) =>
        requests.answer('req-writer-2-1', { approve: true, feedback: 'go', always: true }, 'user'),
      );
      expect(answered).toMatchObject({ status: 'answered', approve: true, by: 'user', feedback: 'go' });
      // The asked call is kept, and runs once: a second `ran` of it changes nothing.
      expect(answered.input).toBe('{"path":"x","content":"y"}');
      const ran = await store.transact('newsroom', ({ requests }) => [
        requests.ran('req-writer-2-1', '{"success":true}', 3),
        requests.ran('req-writer-2-1', '{"success":true}', 3),
      ]);
      expect(ran).toEqual([true, false]);
      await expect(
        store.transact('newsroom', ({ requests }) =>
          requests.answer('req-writer-2-1', { approve: false, feedback: '' }, 'user'),
        ),
      ).rejects.toMatchObject({ code: 'request-closed' });
      await expect(
        store.transact('newsroom', ({ requests }) =>
          requests.answer('req-nope', { approve: false, feedback: '' }, 'user'),
        ),
      ).rejects.toMatchObject({ code: 'request-not-found' });
      // A permission approved with `always` is a grant; a transaction that throws keeps no request change.
      await expect(
        store.transact('newsroom', ({ requests }) => {
          requests.answer('req-writer-2-2', { approve: true, feedback: '' }, 'editor');
          requests.grant('nobody', ['docs/**'], '*', 'editor');
        }),
      ).rejects.toMatchObject({ code: 'not-a-member' });
      const view = await store.transact('newsroom', ({ requests }) => requests.view());
      expect(view.requests.get('req-writer-2-2')?.status).toBe('open');
      expect(view.requests.get('req-writer-2-1')).toMatchObject({
        ran: { turn: 3, output: '{"success":true}' },
        input: '{"path":"x","content":"y"}',
      });
      expect(view.grants).toEqual([{ member: 'writer', pattern: 'x', tool: 'write_file' }]);
      // A new run begins with none.
      await store.leaveRun('newsroom', (await store.getTeam('newsroom'))?.runId as string);
      await store.startRun('newsroom', { fresh: false });
      expect((await store.transact('newsroom', ({ requests }) => requests.view())).requests.size).toBe(0);
      await store.close();
    });

    test('a callback must be synchronous, and its rules die with the transaction', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      await expect(
        store.transact('newsroom', async ({ board }) => board.createTask({ title: 'Async' }, 'editor')),
      ).rejects.toMatchObject({ code: 'invalid-input' });
      let kept: { createTask: (task: { title: string }, by: string) => unknown } | undefined;
      await store.transact('newsroom', ({ board }) => {
        kept = board;
      });
      expect(() => kept?.createTask({ title: 'Late' }, 'editor')).toThrow(/finished transaction/);
      expect(await store.transact('newsroom', ({ board }) => board.listTasks())).toEqual([]);
    });

    test('subscribers get each commit’s events, stamped, in commit order', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const batches: TeamEvent[][] = [];
      const stop = store.subscribe('newsroom', (events) => batches.push([...events]));
      await store.transact('newsroom', ({ board }) =>
        board.createTask({ title: 'One', assignee: 'writer' }, 'editor'),
      );
      await store.transact('newsroom', ({ board, mailbox }) => {
        board.claimTask('writer');
        mailbox.send('writer', 'everyone', 'on it');
      });
      await store.transact('newsroom', ({ board }) => board.listTasks());
      stop();
      await store.transact('newsroom', ({ board }) => board.createTask({ title: 'Unheard' }, 'editor'));
      expect(batches.map((batch) => batch.map((event) => event.type))).toEqual([
        ['team:task-created'],
        ['team:task-claimed', 'team:message-sent'],
      ]);
      const [claimed, sent] = batches[1] ?? [];
      expect(claimed).toMatchObject({ team: 'newsroom', seq: 2, data: { member: 'writer' } });
      expect(sent).toMatchObject({ seq: 3, data: { to: ['editor', 'researcher'], broadcast: true } });
      expect(Date.parse(claimed?.timestamp ?? '')).not.toBeNaN();
    });

    test('a fresh run empties the list and inboxes and logs its events under its run id', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      await store.transact('newsroom', ({ board, mailbox }) => {
        board.createTask({ title: 'Old' }, 'editor');
        mailbox.send('editor', 'writer', 'old news');
      });
      const run = await store.startRun('newsroom');
      expect(run.runId).toMatch(/^newsroom-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
      await store.transact('newsroom', ({ board, mailbox, emit }) => {
        emit({
          type: 'team:start',
          data: { lead: 'editor', members: ['researcher', 'writer'], input: 'go' },
        });
        board.createTask({ title: 'New' }, 'editor');
        expect(mailbox.messages('writer')).toEqual([]);
      });
      const events = await store.readEvents(run.runId as string);
      expect(events.map((event) => [event.seq, event.type, event.runId])).toEqual([
        [1, 'team:start', run.runId],
        [2, 'team:task-created', run.runId],
      ]);
      expect(events[1]).toMatchObject({ data: { task: { id: 'task-1', title: 'New' } } });
      expect((await store.getTeam('newsroom'))?.runId).toBe(run.runId);
    });

    test('transact tells `committed` the events it logged, as readEvents answers them; none for a read or a refusal', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const { runId } = await store.startRun('newsroom');
      const told: (readonly TeamEvent[])[] = [];
      const committed = (events: readonly TeamEvent[]) => told.push(events);
      await store.transact('newsroom', ({ board }) => board.createTask({ title: 'Research' }, 'editor'), {
        committed,
      });
      await store.transact(
        'newsroom',
        ({ board, mailbox }) => {
          board.claimTask('researcher');
          mailbox.send('editor', 'researcher', 'go');
        },
        { committed },
      );
      await store.transact('newsroom', ({ board }) => board.listTasks(), { committed });
      await expect(
        store.transact('newsroom', ({ board }) => board.claimTask('writer', 'task-1'), { committed }),
      ).rejects.toMatchObject({ code: expect.any(String) });
      expect(told.map((events) => events.map((event) => event.seq))).toEqual([[1], [2, 3], []]);
      expect(told.flat()).toEqual(await store.readEvents(runId as string));
      await store.close();
    });

    test('readEvents after a seq answers only the later events, in order', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const { runId } = await store.startRun('newsroom');
      const caughtUp: TeamEvent[] = [];
      let folded = 0;
      const catchUp = async () => {
        const events = await store.readEvents(runId as string, { afterSeq: folded });
        caughtUp.push(...events);
        folded = events.at(-1)?.seq ?? folded;
        return events.map((event) => event.seq);
      };
      expect(await catchUp()).toEqual([]);
      await store.transact('newsroom', ({ board }) => board.createTask({ title: 'One' }, 'editor'));
      await store.transact('newsroom', ({ board, mailbox }) => {
        board.createTask({ title: 'Two' }, 'editor');
        mailbox.send('editor', 'writer', 'Take two');
      });
      expect(await catchUp()).toEqual([1, 2, 3]);
      expect(await catchUp()).toEqual([]);
      await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
      expect(await catchUp()).toEqual([4]);
      // Every reader reads from where it stands, the whole log included.
      expect((await store.readEvents(runId as string, { afterSeq: 2 })).map((event) => event.seq)).toEqual([
        3, 4,
      ]);
      expect(await store.readEvents(runId as string, { afterSeq: 4 })).toEqual([]);
      expect(await store.readEvents(runId as string, { afterSeq: 99 })).toEqual([]);
      expect(caughtUp).toEqual(await store.readEvents(runId as string));
      expect(await store.readEvents(runId as string, { afterSeq: 0 })).toEqual(caughtUp);
      expect(await store.readEvents('newsroom-unknown-run', { afterSeq: 1 })).toEqual([]);
      for (const afterSeq of [-1, 1.5, Number.NaN]) {
        await expect(store.readEvents(runId as string, { afterSeq })).rejects.toMatchObject({
          code: 'invalid-option',
        });
      }
    });

    test('a run with fresh: false keeps tasks and unread messages', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const first = await store.startRun('newsroom');
      await store.transact('newsroom', ({ board, mailbox }) => {
        board.createTask({ title: 'Kept' }, 'editor');
        mailbox.send('editor', 'writer', 'still unread');
      });
      await store.leaveRun('newsroom', first.runId as string);
      const resumed = await store.startRun('newsroom', { fresh: false });
      const state = await store.transact('newsroom', ({ board, mailbox }) => ({
        tasks: board.listTasks().map((task) => task.title),
        unread: mailbox.unread('writer').map((message) => message.content),
      }));
      expect(state).toEqual({ tasks: ['Kept'], unread: ['still unread'] });
      expect(await store.readEvents(resumed.runId as string)).toEqual([]);
    });

    describe('one live run per team', () => {
      const busy = (runId: string | null) => ({
        code: 'team-busy',
        message: expect.stringMatching(
          new RegExp(`^The team newsroom is running in process ${process.pid} \\(run ${runId}\\)`),
        ),
      });
      const complete = {
        type: 'team:complete',
        data: {
          stopReason: 'completed',
          tasks: { total: 0, pending: 0, inProgress: 0, completed: 0, closed: 0, deleted: 0 },
          leadTurns: 1,
          memberTurns: 0,
          error: null,
        },
      } as const;

      test('a second start while the run is live is refused, and changes nothing', async () => {
        const store = await makeStore();
        await store.createTeam('newsroom', setup);
        const live = await store.startRun('newsroom');
        await store.transact('newsroom', ({ board }) => board.createTask({ title: 'Keep me' }, 'editor'));
        await expect(store.startRun('newsroom')).rejects.toMatchObject(busy(live.runId));
        await expect(store.startRun('newsroom', { fresh: false })).rejects.toMatchObject(busy(live.runId));
        await expect(store.resumeRun('newsroom')).rejects.toMatchObject(busy(live.runId));
        expect(await store.getTeam('newsroom')).toEqual(live);
        expect(await store.transact('newsroom', ({ board }) => board.counts().total)).toBe(1);
        expect((await store.readEvents(live.runId as string)).map((event) => event.seq)).toEqual([1]);
      });

      test('once the runner leaves the run, it may be started again or resumed', async () => {
        const store = await makeStore();
        await store.createTeam('newsroom', setup);
        const first = await store.startRun('newsroom');
        await store.leaveRun('newsroom', first.runId as string);
        await store.leaveRun('newsroom', first.runId as string);
        const resumed = await store.resumeRun('newsroom');
        expect(resumed?.info.runId).toBe(first.runId);
        // Resumed, the run is live again.
        await expect(store.startRun('newsroom')).rejects.toMatchObject(busy(first.runId));
        await store.leaveRun('newsroom', first.runId as string);
        const second = await store.startRun('newsroom');
        expect(second.runId).not.toBe(first.runId);
        // Leaving a run that is not the live one leaves the live one live.
        await store.leaveRun('newsroom', first.runId as string);
        await expect(store.startRun('newsroom')).rejects.toMatchObject(busy(second.runId));
      });

      test('a run is no longer live once its team:complete is committed', async () => {
        const store = await makeStore();
        await store.createTeam('newsroom', setup);
        const first = await store.startRun('newsroom');
        await store.transact('newsroom', ({ emit }) => emit(complete));
        const second = await store.startRun('newsroom');
        expect(second.runId).not.toBe(first.runId);
        await expect(store.startRun('newsroom')).rejects.toMatchObject(busy(second.runId));
      });

      test('the roster of a team whose run is live cannot change; the same setup is no change', async () => {
        const store = await makeStore();
        const made = await store.createTeam('newsroom', setup);
        const run = await store.startRun('newsroom');
        await expect(
          store.createTeam('newsroom', { ...setup, members: ['researcher', 'writer', 'checker'] }),
        ).rejects.toMatchObject(busy(run.runId));
        await expect(store.createTeam('newsroom', { ...setup, maxTasks: 10 })).rejects.toMatchObject(
          busy(run.runId),
        );
        expect(await store.getTeam('newsroom')).toEqual(run);
        // Unchanged: allowed, and nothing is written (not even the update time).
        expect(await store.createTeam('newsroom', { ...setup, selfClaim: true, maxTasks: 50 })).toEqual(run);
        expect(await store.getTeam('newsroom')).toEqual(run);
        expect(run.teamId).toBe(made.teamId);
        await store.leaveRun('newsroom', run.runId as string);
        const changed = await store.createTeam('newsroom', { ...setup, members: ['researcher'] });
        expect(changed.roster.map((entry) => entry.name)).toEqual(['editor', 'researcher']);
      });
    });

    test('any text is kept as it was given: U+0000, lone surrogates, U+FFFF and escapes of them', async () => {
      const store = await makeStore();
      const profile = { description: HOSTILE, model: 'scripted/model', mode: 'default' };
      await store.createTeam('newsroom', { ...setup, profiles: { writer: profile } });
      const run = await store.startRun('newsroom');
      const written = await store.transact('newsroom', ({ board, mailbox, emit }) => {
        for (const text of HOSTILE_TEXTS)
          board.createTask({ title: text, description: HOSTILE, assignee: 'writer' }, 'editor');
        board.claimTask('writer');
        board.updateTask('task-1', { status: 'completed', result: HOSTILE, note: HOSTILE }, 'writer');
        for (const text of HOSTILE_TEXTS) mailbox.send('writer', 'editor', text);
        emit({
          type: 'team:tool-called',
          data: {
            agent: 'writer',
            turn: 1,
            taskId: 'task-1',
            toolCallId: HOSTILE,
            toolName: 'x',
            input: HOSTILE,
          },
        });
        return { tasks: board.listTasks(), inbox: mailbox.messages('editor') };
      });
      expect(written.tasks.map((task) => task.title)).toEqual(HOSTILE_TEXTS);
      // Read back from the storage, by another store object where the store has storage.
      const again = reopen(store);
      const read = await again.transact('newsroom', ({ board, mailbox }) => ({
        tasks: board.listTasks(),
        inbox: mailbox.messages('editor'),
      }));
      expect(read).toEqual(written);
      expect(read.tasks[0]).toMatchObject({ description: HOSTILE, result: HOSTILE, note: HOSTILE });
      expect(read.inbox.map((message) => message.content)).toEqual(HOSTILE_TEXTS);
      expect(
        (await again.getTeam('newsroom'))?.roster.find((entry) => entry.name === 'writer'),
      ).toMatchObject(profile);
      const logged = (await again.readEvents(run.runId as string)).find(
        (event) => event.type === 'team:tool-called',
      );
      expect(logged?.data).toMatchObject({ toolCallId: HOSTILE, input: HOSTILE });
      const created = (await again.readEvents(run.runId as string)).filter(
        (e) => e.type === 'team:task-created',
      );
      expect(created.map((event) => event.type === 'team:task-created' && event.data.task.title)).toEqual(
        HOSTILE_TEXTS,
      );
    });

    test('after close, every call is refused with store-closed; close again is fine', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const run = await store.startRun('newsroom');
      await store.close();
      const closed = { code: 'store-closed', message: expect.stringMatching(/^This \w+Store is closed/) };
      const calls: (() => Promise<unknown>)[] = [
        () => store.createTeam('newsroom', setup),
        () => store.getTeam('newsroom'),
        () => store.listTeams(),
        () => store.transact('newsroom', ({ board }) => board.listTasks()),
        () => store.startRun('newsroom'),
        () => store.resumeRun('newsroom'),
        () => store.leaveRun('newsroom', run.runId as string),
        () => store.listRuns(),
        () => store.readEvents(run.runId as string),
      ];
      for (const call of calls) await expect(call()).rejects.toMatchObject(closed);
      expect(() => store.subscribe('newsroom', () => {})).toThrow(expect.objectContaining(closed));
      await store.close();
    });

    test('what a store hands out survives a JSON round trip unchanged', async () => {
      const store = await makeStore();
      await store.createTeam('newsroom', setup);
      const snapshot = await store.transact('newsroom', ({ board, mailbox }) => {
        board.createTask({ title: 'T', description: 'd', assignee: 'writer' }, 'editor');
        board.claimTask('writer');
        board.updateTask('task-1', { status: 'completed', result: 'r', note: 'n' }, 'writer');
        mailbox.send('writer', 'lead', 'done');
        return { tasks: board.listTasks(), inbox: mailbox.messages('editor') };
      });
      expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    });
  });
}
