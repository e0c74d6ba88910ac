import { MemoryStore, type TaskChange, type TeamTask, type TeamTaskBoard } from 'agent-teams';
import fc from 'fast-check';
import { expect, test } from 'vitest';

// The board answers who may take what, who holds what, what a completion frees and what a
// task holds up from an index it keeps as tasks change (dependencies edited, tasks deleted too). Checked here against the plain reading of the list, after
// random commands, some of them inside transactions that throw (and so are undone).

const members = ['a', 'b', 'c'];
const actor = fc.constantFrom('lead', 'a', 'b', 'c');
const pick = fc.nat({ max: 13 });
const command = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    deps: fc.array(pick, { maxLength: 3 }),
    assignee: fc.option(fc.constantFrom(...members), { freq: 3 }),
  }),
  fc.record({ kind: fc.constant('assign' as const), task: pick, to: fc.constantFrom(...members) }),
  fc.record({ kind: fc.constant('claim' as const), by: actor, task: fc.option(pick) }),
  fc.record({
    kind: fc.constant('update' as const),
    by: actor,
    task: pick,
    change: fc.constantFrom<TaskChange>(
      { status: 'completed', result: 'r' },
      { status: 'completed' },
      { status: 'pending' },
    ),
  }),
  fc.record({ kind: fc.constant('release' as const), member: fc.constantFrom(...members) }),
  fc.record({ kind: fc.constant('requeue' as const) }),
  fc.record({
    kind: fc.constant('depend' as const),
    task: pick,
    add: fc.array(pick, { maxLength: 2 }),
    remove: fc.array(pick, { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), by: actor, task: pick }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

function apply(board: TeamTaskBoard, cmd: Command): void {
  const tasks = board.listTasks();
  const idAt = (index: number) => tasks[index % Math.max(tasks.length, 1)]?.id ?? 'task-99';
  try {
    if (cmd.kind === 'create')
      board.createTask(
        {
          title: `t${tasks.length}`,
          dependsOn: [...new Set(cmd.deps.map(idAt))].filter((id) => id !== 'task-99'),
          assignee: cmd.assignee ?? undefined,
        },
        'lead',
      );
    else if (cmd.kind === 'assign') board.assignTask(idAt(cmd.task), cmd.to, 'lead');
    else if (cmd.kind === 'claim') board.claimTask(cmd.by, cmd.task === null ? undefined : idAt(cmd.task));
    else if (cmd.kind === 'update') board.updateTask(idAt(cmd.task), cmd.change, cmd.by);
    else if (cmd.kind === 'release') board.releaseMember(cmd.member, 'lead');
    else if (cmd.kind === 'depend')
      board.updateTask(
        idAt(cmd.task),
        { addDependsOn: cmd.add.map(idAt), removeDependsOn: cmd.remove.map(idAt) },
        'lead',
      );
    else if (cmd.kind === 'delete') board.deleteTask(idAt(cmd.task), 'not needed', cmd.by);
    else board.requeueInProgress('lead');
  } catch {
    // Refusals are the rules' business (properties.test.ts); here only the answers matter.
  }
}

/** What the index must answer, read the slow way from the list. */
function scanned(tasks: readonly TeamTask[], selfClaim: boolean) {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const ready = (task: TeamTask) =>
    task.status === 'pending' && task.dependsOn.every((id) => byId.get(id)?.status === 'completed');
  const claimable = (member: string) => [
    ...tasks.filter((task) => ready(task) && task.assignee === member),
    ...(selfClaim ? tasks.filter((task) => ready(task) && task.assignee === null) : []),
  ];
  return {
    counts: {
      total: tasks.length,
      pending: tasks.filter((task) => task.status === 'pending').length,
      inProgress: tasks.filter((task) => task.status === 'in_progress').length,
      completed: tasks.filter((task) => task.status === 'completed').length,
      closed: tasks.filter((task) => task.closed).length,
      deleted: tasks.filter((task) => task.status === 'deleted').length,
    },
    held: (member: string) => tasks.find((task) => task.status === 'in_progress' && task.owner === member),
    claimable,
    assignedOnly: (member: string) => claimable(member).find((task) => task.assignee === member),
    freed: (id: string) =>
      tasks
        .filter(
          (task) =>
            task.status === 'pending' &&
            task.dependsOn.includes(id) &&
            task.dependsOn.every((dep) => dep === id || byId.get(dep)?.status === 'completed'),
        )
        .map((task) => task.id),
    blocks: (id: string) =>
      ['completed', 'deleted'].includes(byId.get(id)?.status ?? '')
        ? []
        : tasks
            .filter(
              (task) =>
                (task.status === 'pending' || task.status === 'in_progress') && task.dependsOn.includes(id),
            )
            .map((task) => task.id),
  };
}

function expectIndexed(board: TeamTaskBoard): void {
  const tasks = board.listTasks();
  const scan = scanned(tasks, board.selfClaim);
  expect(board.counts()).toEqual(scan.counts);
  for (const member of members) {
    expect(board.heldBy(member)).toBe(scan.held(member));
    expect(board.claimableBy(member)).toEqual(scan.claimable(member));
    expect(board.nextClaimable(member)).toBe(scan.claimable(member)[0]);
    expect(board.nextClaimable(member, { assignedOnly: true })).toBe(scan.assignedOnly(member));
  }
  for (const task of tasks) {
    expect(board.unblockedBy(task.id)).toEqual(scan.freed(task.id));
    expect(board.blocks(task.id)).toEqual(scan.blocks(task.id));
  }
}

test('what members may take, hold and free is what the list says, after any commands, undone ones too', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(command, fc.boolean()), { minLength: 5, maxLength: 60 }),
      fc.boolean(),
      async (steps, selfClaim) => {
        const store = new MemoryStore();
        await store.createTeam('t', { lead: 'lead', members, selfClaim, maxTasks: 14 });
        for (const [cmd, undone] of steps) {
          await store
            .transact('t', ({ board }) => {
              apply(board, cmd);
              if (undone) throw new Error('undo');
            })
            .catch((error: Error) => expect(error.message).toBe('undo'));
          await store.transact('t', ({ board }) => expectIndexed(board));
        }
      },
    ),
    { numRuns: 300 },
  );
});
