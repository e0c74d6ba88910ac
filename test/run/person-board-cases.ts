// Runs steered by the board: shared by person-board.test.ts (memory, file) and
// person-board-postgres.test.ts.
import { foldEvents, type TeamEvent, type TeamStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { renderLive } from '../../src/cli/view/live-view.js';
import { BOATS, PERSON_TASK, teams } from '../cli/fixtures/board-team.js';
import { expectBoardChanged, taskTurns } from '../helpers/board-run.js';
import { byAgent, createTask, testTeam, tool } from '../helpers/team.js';
import { until } from '../helpers/until.js';

/**
 * The person changes the board of a running team through its handle (run.deleteTask, run.assignTask,
 * run.addTask, run.editTask), and the run follows: on each store its test file gives.
 */
export function personBoardCases(kind: string, makeStore: () => TeamStore): void {
  describe(`the person at the board of a running team, on the ${kind}`, () => {
    test('the person deletes a task, gives one to another member and adds one: the run does what the board says', async () => {
      const team = teams.board.withStore(makeStore());
      const events: TeamEvent[] = [];
      team.on('*', (event) => events.push(event));
      const run = await team.start({ input: 'Hold the line and count the boats' });
      // The plan is on the list (its tasks are created one by one: a may claim task-1 before
      // task-3 exists) and a holds task-1.
      await until(
        () =>
          events.some((event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1') &&
          events.some((event) => event.type === 'team:task-created' && event.data.task.id === 'task-3'),
      );

      // A refused edit is the rule's error and changes nothing. (Asked before the person's task
      // is added: once it is done, a completes task-1.)
      await expect(run.editTask('task-1', { addDependsOn: ['task-3'] })).rejects.toMatchObject({
        code: 'task-in-progress',
      });
      await expect(run.deleteTask('task-1', 'Stop holding')).rejects.toMatchObject({
        code: 'task-in-progress',
      });
      const deleted = await run.deleteTask('task-2', 'Polish is not needed');
      expect(deleted).toMatchObject({ id: 'task-2', status: 'deleted', note: 'Polish is not needed' });
      expect(await run.assignTask('task-3', 'c')).toMatchObject({ id: 'task-3', assignee: 'c' });
      const added = await run.addTask({ title: PERSON_TASK, assignee: 'b' });
      expect(added).toMatchObject({ id: 'task-4', createdBy: 'user' });

      const result = await run.result;
      expectBoardChanged(result, events);
      expect(result.output).toBe('The line held; the boats are counted.');
      const complete = events.find((event) => event.type === 'team:complete');
      expect(complete?.data.tasks).toMatchObject({ total: 4, completed: 3, deleted: 1, pending: 0 });
      await expect(run.addTask({ title: 'Late' })).rejects.toMatchObject({ code: 'run-ended' });
      // The terminal's live view keeps the deleted task in sight, off the three columns.
      const view = renderLive(foldEvents(events), Date.now(), 110).join('\n');
      expect(view).toMatch(/pending \(0\) +in progress \(0\) +completed \(3\)/);
      expect(view).toContain('deleted (1): task-2 Polish');
    });

    test('the person takes tasks back to the list: one given to b, and the one a works on; each is told, and the run does them all', async () => {
      const team = teams.board.withStore(makeStore());
      const events: TeamEvent[] = [];
      team.on('*', (event) => events.push(event));
      const run = await team.start({ input: 'Hold the line' });
      // The plan is on the list (its tasks are created one by one) and a holds task-1.
      await until(
        () =>
          events.some((event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1') &&
          events.some((event) => event.type === 'team:task-created' && event.data.task.id === 'task-3'),
      );
      const review = await run.assignTask('task-3', null);
      expect(review).toMatchObject({ id: 'task-3', status: 'pending', assignee: null });
      // Taking back a task nobody has changes nothing (task-3 waits for task-1: nobody can take it meanwhile).
      expect(await run.assignTask('task-3', null)).toEqual(review);
      // The lead's release: a task in progress goes back to the list, its member no longer on it.
      const taken = await run.assignTask('task-1', null);
      expect(taken).toMatchObject({ id: 'task-1', status: 'pending', owner: null, assignee: null });
      await run.addTask({ title: PERSON_TASK });
      const result = await run.result;
      expect(result.teamResult.stopReason).toBe('completed');
      expect(result.teamResult.tasks.map((task) => `${task.id}:${task.status}`)).toEqual([
        'task-1:completed',
        'task-2:completed',
        'task-3:completed',
        'task-4:completed',
      ]);
      await expect(run.assignTask('task-1', null)).rejects.toMatchObject({ code: 'run-ended' });
      const notices = events.flatMap((event) =>
        event.type === 'team:message-sent' && event.data.from === 'user'
          ? [`${event.data.to.join(', ')}: ${event.data.content}`]
          : [],
      );
      expect(notices).toEqual([
        'b: user took task-3 ("Review") back from you: it is on the list for anyone again, no longer yours to do.',
        'a: user took task-1 ("Hold the line") back from you: it is on the list for anyone again, no longer yours to do.',
      ]);
      const releases = events.flatMap((event) =>
        event.type === 'team:task-updated' && event.data.by === 'user'
          ? [`${event.data.task.id} ${event.data.from}->${event.data.to}`]
          : [],
      );
      expect(releases).toEqual(['task-3 pending->pending', 'task-1 in_progress->pending']);
    });

    test('the person edits a pending task: its text, what it waits for and its member, in one commit the member reads', async () => {
      const team = teams.board.withStore(makeStore());
      const events: TeamEvent[] = [];
      team.on('*', (event) => events.push(event));
      const run = await team.start({ input: 'Hold the line' });
      // The plan's tasks are created one by one: task-3 may come after a claimed task-1.
      await until(
        () =>
          events.some((event) => event.type === 'team:task-claimed' && event.data.task.id === 'task-1') &&
          events.some((event) => event.type === 'team:task-created' && event.data.task.id === 'task-3'),
      );
      await run.deleteTask('task-2', 'Not needed');
      // Review no longer waits for the held task, and is the person's task now, for c.
      const edited = await run.editTask('task-3', {
        title: PERSON_TASK,
        description: 'Count them at the harbour',
        removeDependsOn: ['task-1'],
        assignee: 'c',
      });
      expect(edited).toMatchObject({ title: PERSON_TASK, dependsOn: [], assignee: 'c' });
      const result = await run.result;
      expect(result.teamResult.tasks.find((task) => task.id === 'task-3')).toMatchObject({
        status: 'completed',
        owner: 'c',
        result: BOATS,
      });
      expect(taskTurns(events).sort()).toEqual(['a task-1', 'c task-3']);
    });
  });
}

/** The lead changes its plan with update_task and delete_task in a run, and the run follows. */
export function leadGraphCases(kind: string, makeStore: () => TeamStore): void {
  describe(`the lead reshapes its plan with its tools, on the ${kind}`, () => {
    test('update_task makes a task wait for another and delete_task drops one: the run follows, and ends without it', async () => {
      const { team, of } = testTeam(
        byAgent({
          lead: (call) => {
            if (call.reason === 'start' && call.step === 0)
              return {
                toolCalls: [
                  createTask({ title: 'Write' }),
                  createTask({ title: 'Research' }),
                  createTask({ title: 'Duplicate' }),
                ],
              };
            if (call.reason === 'start' && call.step === 1)
              return {
                toolCalls: [
                  tool('update_task', { taskId: 'task-1', addDependsOn: ['task-2'] }),
                  tool('delete_task', { taskId: 'task-3', reason: 'Same as task-2' }),
                  tool('get_task', { taskId: 'task-2' }),
                ],
              };
            return call.reason === 'synthesis' ? 'Written.' : 'Planned.';
          },
        }),
        { members: ['a', 'b'], store: makeStore() },
      );
      const run = await team.start({ input: 'Write it up' });
      const result = await run.result;
      expect(result.teamResult.stopReason).toBe('completed');
      expect(result.teamResult.tasks.map(({ id, status }) => `${id} ${status}`)).toEqual([
        'task-1 completed',
        'task-2 completed',
        'task-3 deleted',
      ]);
      const results = of('team:tool-result').filter((event) => event.data.agent === 'lead');
      expect(results.map((event) => event.data.toolName)).toContain('delete_task');
      const got = results.find((event) => event.data.toolName === 'get_task');
      expect(JSON.parse(got?.data.output ?? '{}')).toMatchObject({
        task: { id: 'task-2', blocks: ['task-1'] },
      });
      // Research was done before the writing that waits for it; nobody took the duplicate.
      const claimed = of('team:task-claimed').map((event) => event.data.task.id);
      expect(claimed).toEqual(['task-2', 'task-1']);
      await until(() => of('team:complete').length === 1);
    });
  });
}
