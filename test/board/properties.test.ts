import { isTeamError, type TeamTask } from 'agent-teams';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { newBoard } from '../helpers/board.js';
import { boardCommand, idAtOf, runCommand } from '../helpers/board-commands.js';

// Random command sequences from random actors (the lead, members, strangers) against one
// board. Whatever is refused must change nothing; whatever succeeds must keep the invariants:
// one holder per task, completed and deleted tasks final, no dependency cycle, nothing open
// waiting for a deleted task.

test('no command sequence breaks the task list invariants', () => {
  fc.assert(
    fc.property(
      fc.array(boardCommand, { minLength: 10, maxLength: 80 }),
      fc.boolean(),
      (commands, selfClaim) => {
        const { board, events } = newBoard({ selfClaim, maxTasks: 10 });
        const idAt = idAtOf(board);
        const finished = new Map<string, TeamTask>();
        const owners = new Map<string, string>();
        const created = new Set<string>();

        for (const cmd of commands) {
          const before = JSON.stringify(board.listTasks());
          const seen = events.length;
          try {
            runCommand(board, cmd, idAt);
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
            if (task.status === 'completed' || task.status === 'deleted') {
              const earlier = finished.get(task.id);
              if (earlier) expect(task).toBe(earlier);
              finished.set(task.id, task);
            }
            // Nothing open waits for a deleted task.
            if (task.status === 'pending' || task.status === 'in_progress')
              for (const dep of task.dependsOn) expect(board.getTask(dep)?.status).not.toBe('deleted');
          }
          // No task waits for itself, directly or through others.
          const visiting = new Set<string>();
          const done = new Set<string>();
          const walk = (id: string): void => {
            if (done.has(id)) return;
            expect(visiting.has(id)).toBe(false);
            visiting.add(id);
            for (const dep of board.getTask(id)?.dependsOn ?? []) walk(dep);
            visiting.delete(id);
            done.add(id);
          };
          for (const task of tasks) walk(task.id);
          for (const count of holding.values()) expect(count).toBe(1);
          expect(tasks.length).toBeLessThanOrEqual(10);
        }
      },
    ),
    { numRuns: 400 },
  );
});
