import { isTeamError, type TeamTask } from 'agent-teams';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { newBoard } from '../helpers/board.js';

// Random command sequences from random actors (the lead, members, strangers) against one
// board. Whatever is refused must change nothing; whatever succeeds must keep the invariants.

// Mostly team agents, so that most commands get past the roster checks to the rules.
const actor = fc.oneof(
  { arbitrary: fc.constant('lead'), weight: 3 },
  { arbitrary: fc.constantFrom('a', 'b', 'c'), weight: 8 },
  { arbitrary: fc.constant('zed'), weight: 1 },
);
// Indexes into the current list (modulo its length), with an occasional miss past its end.
const pick = fc.nat({ max: 11 });

const command = fc.oneof(
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
);

test('no command sequence breaks the task list invariants', () => {
  fc.assert(
    fc.property(fc.array(command, { minLength: 10, maxLength: 80 }), fc.boolean(), (commands, selfClaim) => {
      const { board, events } = newBoard({ selfClaim, maxTasks: 10 });
      const idAt = (index: number) => {
        const tasks = board.listTasks();
        return index === 11 || tasks.length === 0
          ? `task-${index + 1}`
          : (tasks[index % tasks.length]?.id as string);
      };
      const finished = new Map<string, TeamTask>();
      const owners = new Map<string, string>();
      const created = new Set<string>();

      for (const cmd of commands) {
        const before = JSON.stringify(board.listTasks());
        const seen = events.length;
        try {
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
          else if (cmd.kind === 'claim')
            board.claimTask(cmd.by, cmd.task === null ? undefined : idAt(cmd.task));
          else if (cmd.kind === 'update') board.updateTask(idAt(cmd.task), cmd.change, cmd.by);
          else board.releaseMember(cmd.member, cmd.by);
        } catch (error) {
          if (!isTeamError(error)) throw error;
          expect(JSON.stringify(board.listTasks())).toBe(before);
          expect(events.length).toBe(seen);
        }

        // Replaying the events: a claim never lands on a task someone owns, ids are never reused.
        for (const event of events.slice(seen)) {
          if (event.type === 'team:task-created') {
            expect(created.has(event.data.task.id)).toBe(false);
            created.add(event.data.task.id);
          }
          if (event.type === 'team:task-claimed') {
            expect(owners.has(event.data.task.id)).toBe(false);
            owners.set(event.data.task.id, event.data.member);
          }
          if (event.type === 'team:task-updated' && event.data.task.status === 'pending')
            owners.delete(event.data.task.id);
          if (event.type === 'team:task-completed') owners.delete(event.data.task.id);
        }

        const tasks = board.listTasks();
        expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
        const holding = new Map<string, number>();
        for (const task of tasks) {
          if (task.status === 'in_progress') {
            expect(task.owner).not.toBeNull();
            holding.set(task.owner as string, (holding.get(task.owner as string) ?? 0) + 1);
            for (const dep of task.dependsOn) expect(board.getTask(dep)?.status).toBe('completed');
          }
          if (task.status === 'completed') {
            const earlier = finished.get(task.id);
            if (earlier) expect(task).toBe(earlier);
            finished.set(task.id, task);
          }
        }
        for (const count of holding.values()) expect(count).toBe(1);
        expect(tasks.length).toBeLessThanOrEqual(10);
      }
    }),
    { numRuns: 400 },
  );
});
