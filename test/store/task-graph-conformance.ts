import { createTeamTools, type TeamEvent, type TeamStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import {
  addTaskAsUser,
  assignTaskAsUser,
  deleteTaskAsUser,
  editTaskAsUser,
} from '../../src/run/task-control.js';
import { runTool } from '../helpers/tools.js';

const TEAM = 'newsroom';
const setup = { lead: 'editor', members: ['researcher', 'writer', 'checker'] };

/** A store with the team, its run started, every committed event recorded, and each agent's tools. */
async function newsroom(makeStore: () => Promise<TeamStore> | TeamStore) {
  const store = await makeStore();
  await store.createTeam(TEAM, setup);
  await store.startRun(TEAM);
  const events: TeamEvent[] = [];
  store.subscribe(TEAM, (committed) => events.push(...committed));
  const call = (agent: string, name: string, input: Record<string, unknown> = {}) =>
    runTool(createTeamTools({ store, team: TEAM }, agent), name, input);
  const tasks = () => store.transact(TEAM, ({ board }) => board.listTasks());
  const task = async (id: string) => (await tasks()).find((each) => each.id === id);
  const inbox = (agent: string) => store.transact(TEAM, ({ mailbox }) => mailbox.messages(agent));
  const plan = (...specs: { title: string; dependsOn?: string[]; assignee?: string; by?: string }[]) =>
    store.transact(TEAM, ({ board }) =>
      specs.map(({ by = 'editor', ...spec }) => board.createTask(spec, by).id),
    );
  return { store, events, call, tasks, task, inbox, plan };
}

/**
 * The task graph's rules (dependencies added and removed, tasks deleted, the person's edits)
 * on a store: each store runs the same board inside its transaction, so each refuses alike and
 * keeps alike. Run by each store's test file with its own factory.
 */
export function taskGraphConformance(kind: string, makeStore: () => Promise<TeamStore> | TeamStore): void {
  describe(`${kind}: the task graph changes`, () => {
    test('update_task adds a dependency (the task waits) and removes it (free again); get_task shows blocks and blockedBy', async () => {
      const { store, events, call, plan } = await newsroom(makeStore);
      await plan({ title: 'Research' }, { title: 'Draft' }, { title: 'Check', assignee: 'checker' });
      const added = await call('editor', 'update_task', { taskId: 'task-3', addDependsOn: ['task-2'] });
      expect(added).toMatchObject({
        success: true,
        task: { id: 'task-3', dependsOn: ['task-2'], blockedBy: ['task-2'] },
      });
      const claimable = () =>
        store.transact(TEAM, ({ board }) => board.claimableBy('checker').map((each) => each.id));
      expect(await claimable()).toEqual(['task-1', 'task-2']);
      expect(await call('checker', 'get_task', { taskId: 'task-2' })).toMatchObject({
        task: { id: 'task-2', blocks: ['task-3'] },
      });
      const listed = (await call('checker', 'list_tasks')) as { tasks: Record<string, unknown>[] };
      expect(listed.tasks.find((each) => each.id === 'task-3')).toMatchObject({ blockedBy: ['task-2'] });
      expect(listed.tasks.find((each) => each.id === 'task-2')).toMatchObject({ blocks: ['task-3'] });

      const removed = await call('editor', 'update_task', { taskId: 'task-3', removeDependsOn: ['task-2'] });
      expect(removed).toMatchObject({ success: true, task: { id: 'task-3' } });
      expect((removed as { task: object }).task).not.toHaveProperty('blockedBy');
      expect(await claimable()).toEqual(['task-3', 'task-1', 'task-2']);
      const edits = events.filter((event) => event.type === 'team:task-edited');
      expect(edits.map((event) => event.data)).toMatchObject([
        { by: 'editor', fields: ['dependsOn'], addedDependsOn: ['task-2'], removedDependsOn: [] },
        { by: 'editor', fields: ['dependsOn'], addedDependsOn: [], removedDependsOn: ['task-2'] },
      ]);
    });

    test('a cycle, the task itself, an unknown id and a deleted task are refused with the reason, and nothing changes', async () => {
      const { store, events, call, tasks, plan } = await newsroom(makeStore);
      await plan(
        { title: 'Research' },
        { title: 'Outline', dependsOn: ['task-1'] },
        { title: 'Draft', dependsOn: ['task-2'] },
        { title: 'Old idea' },
      );
      await store.transact(TEAM, ({ board }) => board.deleteTask('task-4', 'Dropped', 'editor'));
      const before = await tasks();
      const seen = events.length;
      const refusals = [
        [
          ['task-3'],
          'task-1 cannot wait for task-3: task-3 already waits for task-1 (task-3 → task-2 → task-1), so neither could ever start.',
        ],
        [['task-1'], 'task-1 cannot wait for itself.'],
        [['nope'], 'The task nope is not on the list, so task-1 cannot wait for it'],
        [['task-4'], 'The task task-4 was deleted, so task-1 cannot wait for it.'],
      ] as const;
      for (const [addDependsOn, error] of refusals) {
        const answer = await call('editor', 'update_task', { taskId: 'task-1', addDependsOn });
        expect(answer).toEqual({ success: false, error: expect.stringContaining(error) });
      }
      const codes = await Promise.all(
        ['task-3', 'nope', 'task-4'].map((id) =>
          store
            .transact(TEAM, ({ board }) => board.updateTask('task-1', { addDependsOn: [id] }, 'editor'))
            .catch((error: { code: string }) => error.code),
        ),
      );
      expect(codes).toEqual(['dependency-cycle', 'dependency-not-found', 'task-deleted']);
      const notThere = await call('editor', 'update_task', { taskId: 'task-2', removeDependsOn: ['task-3'] });
      expect(notThere).toEqual({
        success: false,
        error: 'task-2 does not wait for task-3; it waits for task-1.',
      });
      const mixed = await call('editor', 'update_task', {
        taskId: 'task-2',
        addDependsOn: ['task-4'],
        note: 'x',
      });
      expect(mixed).toMatchObject({
        success: false,
        error: expect.stringContaining('in a call of their own'),
      });
      expect(await tasks()).toEqual(before);
      expect(events.length).toBe(seen);
    });

    test('only the lead, the person and the task’s creator change its dependencies or delete it', async () => {
      const { store, call, task, plan } = await newsroom(makeStore);
      await plan({ title: 'Research' }, { title: 'Notes', by: 'researcher' });
      const byMember = await call('writer', 'update_task', { taskId: 'task-1', addDependsOn: ['task-2'] });
      expect(byMember).toEqual({
        success: false,
        error: 'Only the lead and the person running the team can change task-1; ask the lead.',
      });
      const refused = await store
        .transact(TEAM, ({ board }) => board.deleteTask('task-2', 'no', 'writer'))
        .catch((error: { code: string; message: string }) => error);
      expect(refused).toMatchObject({
        code: 'not-owner',
        message:
          'Only the lead, the person running the team and researcher, who created it, can delete task-2; ask the lead.',
      });
      // The creator reshapes and deletes its own task; the person does any.
      await store.transact(TEAM, ({ board }) =>
        board.updateTask('task-2', { addDependsOn: ['task-1'] }, 'researcher'),
      );
      expect((await task('task-2'))?.dependsOn).toEqual(['task-1']);
      await store.transact(TEAM, ({ board }) =>
        board.editTask('task-1', { title: 'Research tides' }, 'user'),
      );
      expect((await task('task-1'))?.title).toBe('Research tides');
      await store.transact(TEAM, ({ board }) =>
        board.deleteTask('task-2', 'Folded into task-1', 'researcher'),
      );
      expect(await task('task-2')).toMatchObject({ status: 'deleted', note: 'Folded into task-1' });
      await expect(
        store.transact(TEAM, ({ board }) => board.deleteTask('task-1', 'x', 'zed')),
      ).rejects.toMatchObject({ code: 'unknown-agent' });
    });

    test('a task someone holds keeps its dependencies and is not deleted until released; completed and deleted tasks are final', async () => {
      const { store, call, task, plan } = await newsroom(makeStore);
      await plan({ title: 'Research' }, { title: 'Draft' }, { title: 'Spare' }, { title: 'Done' });
      await store.transact(TEAM, ({ board }) => {
        board.claimTask('researcher', 'task-1');
        board.claimTask('writer', 'task-4');
        board.updateTask('task-4', { status: 'completed', result: 'done' }, 'writer');
        board.deleteTask('task-3', 'Not needed', 'editor');
      });
      const codeOf = (fn: Parameters<TeamStore['transact']>[1]) =>
        store.transact(TEAM, fn).catch((error: { code: string; message: string }) => error);
      expect(
        await codeOf(({ board }) => board.updateTask('task-1', { addDependsOn: ['task-2'] }, 'editor')),
      ).toMatchObject({
        code: 'task-in-progress',
        message: expect.stringContaining('only a pending task changes'),
      });
      const held = await call('editor', 'delete_task', { taskId: 'task-1', reason: 'Dropped' });
      expect(held).toEqual({
        success: false,
        error:
          'The task task-1 is in progress with researcher: it is deleted once researcher releases it (or the lead does).',
      });
      expect(await task('task-1')).toMatchObject({ status: 'in_progress', owner: 'researcher' });
      expect(await codeOf(({ board }) => board.deleteTask('task-4', 'x', 'editor'))).toMatchObject({
        code: 'task-completed',
      });
      expect(await codeOf(({ board }) => board.deleteTask('task-3', 'again', 'editor'))).toMatchObject({
        code: 'task-deleted',
      });
      expect(await codeOf(({ board }) => board.claimTask('writer', 'task-3'))).toMatchObject({
        code: 'task-deleted',
      });
      expect(await codeOf(({ board }) => board.deleteTask('task-2', '  ', 'editor'))).toMatchObject({
        code: 'invalid-input',
      });
      // Released, it is deleted.
      await store.transact(TEAM, ({ board }) => {
        board.updateTask('task-1', { status: 'pending' }, 'researcher');
        board.deleteTask('task-1', 'Not worth it', 'editor');
      });
      expect(await task('task-1')).toMatchObject({ status: 'deleted', note: 'Not worth it' });
      expect(await store.transact(TEAM, ({ board }) => board.heldBy('researcher'))).toBeUndefined();
    });

    test('delete_task: the task is kept as deleted, its dependents no longer wait and their members are told why', async () => {
      const { store, events, call, tasks, inbox, plan } = await newsroom(makeStore);
      await plan(
        { title: 'Research' },
        { title: 'Draft', dependsOn: ['task-1'], assignee: 'writer' },
        { title: 'Check', dependsOn: ['task-1'], assignee: 'checker' },
        { title: 'Outline', dependsOn: ['task-1'] },
      );
      const answer = await call('editor', 'delete_task', { taskId: 'task-1', reason: 'The archive has it' });
      expect(answer).toMatchObject({
        success: true,
        task: { id: 'task-1', status: 'deleted', note: 'The archive has it' },
        noLongerWaiting: ['task-2', 'task-3', 'task-4'],
      });
      expect((await tasks()).map(({ id, status, dependsOn }) => ({ id, status, dependsOn }))).toEqual([
        { id: 'task-1', status: 'deleted', dependsOn: [] },
        { id: 'task-2', status: 'pending', dependsOn: [] },
        { id: 'task-3', status: 'pending', dependsOn: [] },
        { id: 'task-4', status: 'pending', dependsOn: [] },
      ]);
      expect(await store.transact(TEAM, ({ board }) => board.counts())).toEqual({
        total: 4,
        pending: 3,
        inProgress: 0,
        completed: 0,
        closed: 0,
        deleted: 1,
      });
      expect(await store.transact(TEAM, ({ board }) => board.nextClaimable('writer')?.id)).toBe('task-2');
      for (const [member, dependent] of [
        ['writer', 'task-2 ("Draft")'],
        ['checker', 'task-3 ("Check")'],
      ]) {
        expect(await inbox(member as string)).toMatchObject([
          {
            from: 'editor',
            kind: 'task_notification',
            automatic: true,
            content: `editor deleted task-1 ("Research"): The archive has it\n${dependent}, given to you, no longer waits for it.`,
          },
        ]);
      }
      expect(await inbox('editor')).toEqual([]); // it deleted the task: nobody tells it
      expect(
        events.filter((event) => event.type.startsWith('team:task-')).map((event) => event.type),
      ).toEqual([
        'team:task-created',
        'team:task-created',
        'team:task-created',
        'team:task-created',
        'team:task-deleted',
        'team:task-edited',
        'team:task-edited',
        'team:task-edited',
      ]);
      const deleted = events.find((event) => event.type === 'team:task-deleted');
      expect(deleted?.data).toMatchObject({
        by: 'editor',
        reason: 'The archive has it',
        dependents: ['task-2', 'task-3', 'task-4'],
      });
      const listed = await call('editor', 'list_tasks', { status: 'deleted' });
      expect(listed).toMatchObject({
        tasks: [{ id: 'task-1', status: 'deleted', note: 'The archive has it' }],
      });
    });

    test('the person adds, edits, gives and deletes tasks of the run as user, with the same rules', async () => {
      const { store, task, inbox, plan } = await newsroom(makeStore);
      await plan({ title: 'Research', assignee: 'researcher' }, { title: 'Draft', dependsOn: ['task-1'] });
      const added = await addTaskAsUser(store, TEAM, { title: 'Count the boats', assignee: 'checker' });
      expect(added).toMatchObject({
        id: 'task-3',
        createdBy: 'user',
        assignee: 'checker',
        status: 'pending',
      });
      const edited = await editTaskAsUser(store, TEAM, 'task-2', {
        title: 'Draft the piece',
        description: 'About 500 words',
        removeDependsOn: ['task-1'],
        addDependsOn: ['task-3'],
        assignee: 'writer',
      });
      expect(edited).toMatchObject({
        id: 'task-2',
        title: 'Draft the piece',
        description: 'About 500 words',
        dependsOn: ['task-3'],
        assignee: 'writer',
      });
      // A refused edit changes nothing of it, the assignee included.
      await expect(
        editTaskAsUser(store, TEAM, 'task-3', { addDependsOn: ['task-2'], assignee: 'researcher' }),
      ).rejects.toMatchObject({ code: 'dependency-cycle' });
      expect(await task('task-3')).toMatchObject({ assignee: 'checker', dependsOn: [] });
      await expect(editTaskAsUser(store, TEAM, 'task-3', { owner: 'x' } as never)).rejects.toMatchObject({
        code: 'invalid-input',
      });

      const given = await assignTaskAsUser(store, TEAM, 'task-1', 'writer');
      expect(given).toMatchObject({ id: 'task-1', assignee: 'writer' });
      expect(await inbox('researcher')).toMatchObject([
        {
          from: 'user',
          kind: 'task_notification',
          content: 'task-1 ("Research") was reassigned from you to writer.',
        },
      ]);

      const deleted = await deleteTaskAsUser(store, TEAM, 'task-3', 'We know the count');
      expect(deleted).toMatchObject({ id: 'task-3', status: 'deleted', note: 'We know the count' });
      expect(await task('task-2')).toMatchObject({ dependsOn: [] });
      const leadHeard = (await inbox('editor')).map((message) => message.content);
      expect(leadHeard).toEqual([
        'user deleted task-3 ("Count the boats"): We know the count\nTasks that waited for it no longer do: task-2.',
      ]);
      expect((await inbox('checker')).at(-1)).toMatchObject({
        from: 'user',
        content:
          'user deleted task-3 ("Count the boats"): We know the count\nIt was given to you: it is not to be done.',
      });
    });

    test('the person’s edits need a going run: none started, or one that ended, is refused and nothing changes', async () => {
      const store = await makeStore();
      await store.createTeam(TEAM, setup);
      await expect(addTaskAsUser(store, TEAM, { title: 'Too early' })).rejects.toMatchObject({
        code: 'not-live',
      });
      await store.startRun(TEAM);
      await store.transact(TEAM, ({ emit }) =>
        emit({
          type: 'team:complete',
          data: {
            stopReason: 'completed',
            tasks: { total: 0, pending: 0, inProgress: 0, completed: 0, closed: 0, deleted: 0 },
            leadTurns: 1,
            memberTurns: 0,
            error: null,
          },
        }),
      );
      await expect(addTaskAsUser(store, TEAM, { title: 'Too late' })).rejects.toMatchObject({
        code: 'run-ended',
      });
      await expect(addTaskAsUser(store, 'sports', { title: 'x' })).rejects.toMatchObject({
        code: 'team-not-found',
      });
      expect(await store.transact(TEAM, ({ board }) => board.listTasks())).toEqual([]);
    });
  });
}
