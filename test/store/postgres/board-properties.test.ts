import { isTeamError, type TeamTask } from 'agent-teams';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { newBoard } from '../../helpers/board.js';
import { boardCommand, idAtOf, runCommand } from '../../helpers/board-commands.js';
import { postgresReachable, postgresStores } from './database.js';

// The board's property test through a PostgresStore: every random command sequence, run
// one transaction per command, is accepted or refused exactly as on the in-memory board and
// leaves the same list, also as a new store object reads it back from the database.
const reachable = await postgresReachable();
const stores = postgresStores();

const shape = (tasks: readonly TeamTask[]) =>
  tasks.map(({ id, status, owner, assignee, dependsOn, result, note }) => ({
    id,
    status,
    owner,
    assignee,
    dependsOn,
    result,
    note,
  }));

const outcome = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    if (!isTeamError(error)) throw error;
    return error.code;
  }
};

describe.skipIf(!reachable)('the board on PostgreSQL', () => {
  test('command sequences do on PostgreSQL what they do on the in-memory board', async () => {
    const schema = stores.make().schema;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(boardCommand, { minLength: 10, maxLength: 40 }),
        fc.boolean(),
        async (commands, selfClaim) => {
          const store = stores.make(schema);
          const name = `t${++runs}`;
          await store.createTeam(name, { lead: 'lead', members: ['a', 'b', 'c'], selfClaim, maxTasks: 10 });
          const { board } = newBoard({ selfClaim, maxTasks: 10 });
          for (const cmd of commands) {
            const expected = outcome(() => runCommand(board, cmd, idAtOf(board)));
            const got = await store.transact(name, (rules) =>
              outcome(() => runCommand(rules.board, cmd, idAtOf(rules.board))),
            );
            expect(got).toBe(expected);
            const stored = await store.transact(name, (rules) => rules.board.listTasks());
            expect(shape(stored)).toEqual(shape(board.listTasks()));
          }
          const reread = stores.make(schema);
          const fromDatabase = await reread.transact(name, (rules) => rules.board.listTasks());
          expect(shape(fromDatabase)).toEqual(shape(board.listTasks()));
          await Promise.all([store.close(), reread.close()]);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
