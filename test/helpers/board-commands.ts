import type { TeamTaskBoard } from 'agent-teams';
import fc from 'fast-check';

// Random commands from random actors (the lead, members, strangers) against a task list,
// for the property tests of the board and of each store.

// Mostly team agents, so that most commands get past the roster checks to the rules.
const actor = fc.oneof(
  { arbitrary: fc.constant('lead'), weight: 3 },
  { arbitrary: fc.constantFrom('a', 'b', 'c'), weight: 8 },
  { arbitrary: fc.constant('zed'), weight: 1 },
);
// Indexes into the current list (modulo its length), with an occasional miss past its end.
const pick = fc.nat({ max: 11 });

/** One command on the list; `task` and `deps` are indexes into it (see `idAtOf`). */
export const boardCommand = fc.oneof(
  { arbitrary: fc.constant({ kind: 'claim' as const, by: 'a', task: null }), weight: 1 },
  fc.record({
    kind: fc.constant('create' as const),
    by: actor,
    deps: fc.array(pick, { maxLength: 2 }),
    assignee: fc.option(actor, { freq: 2 }),
    id: fc.option(fc.constantFrom('x', 'y', 'task-3', 'task-7')),
  }),
  fc.record({ kind: fc.constant('assign' as const), by: actor, task: pick, to: actor }),
  fc.record({ kind: fc.constant('claim' as const), by: actor, task: fc.option(pick) }),
  fc.record({
    kind: fc.constant('update' as const),
    by: actor,
    task: pick,
    change: fc.constantFrom(
      { status: 'completed' as const, result: 'r' },
      { status: 'completed' as const },
      { status: 'pending' as const },
      { note: 'n' },
    ),
  }),
  fc.record({ kind: fc.constant('release' as const), by: actor, member: actor }),
  fc.record({
    kind: fc.constant('depend' as const),
    by: actor,
    task: pick,
    add: fc.array(pick, { maxLength: 2 }),
    remove: fc.array(pick, { maxLength: 1 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), by: actor, task: pick }),
);

export type BoardCommand = typeof boardCommand extends fc.Arbitrary<infer C> ? C : never;

/** The id a command's index names: a task of the current list, or (index 11) one past it. */
export function idAtOf(board: TeamTaskBoard): (index: number) => string {
  return (index) => {
    const tasks = board.listTasks();
    return index === 11 || tasks.length === 0
      ? `task-${index + 1}`
      : (tasks[index % tasks.length]?.id as string);
  };
}

/** Runs a command on the board; throws what the rules throw. */
export function runCommand(board: TeamTaskBoard, cmd: BoardCommand, idAt: (index: number) => string): void {
  if (cmd.kind === 'create') {
    board.createTask(
      {
        title: 't',
        dependsOn: cmd.deps.map(idAt),
        assignee: cmd.assignee ?? undefined,
        id: cmd.id ?? undefined,
      },
      cmd.by,
    );
  } else if (cmd.kind === 'assign') board.assignTask(idAt(cmd.task), cmd.to, cmd.by);
  else if (cmd.kind === 'claim') board.claimTask(cmd.by, cmd.task === null ? undefined : idAt(cmd.task));
  else if (cmd.kind === 'update') board.updateTask(idAt(cmd.task), cmd.change, cmd.by);
  else if (cmd.kind === 'depend')
    board.updateTask(
      idAt(cmd.task),
      { addDependsOn: cmd.add.map(idAt), removeDependsOn: cmd.remove.map(idAt) },
      cmd.by,
    );
  else if (cmd.kind === 'delete') board.deleteTask(idAt(cmd.task), 'not needed', cmd.by);
  else board.releaseMember(cmd.member, cmd.by);
}
