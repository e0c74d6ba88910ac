import { fileURLToPath } from 'node:url';
import { FileStore, foldEvents } from 'agent-teams';
import { expect, test } from 'vitest';
import { startTurn } from '../../src/run/start-turn.js';
import { runScript } from '../helpers/child.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { descriptorTeam } from './fixtures/descriptor-team.js';

const teamFile = fileURLToPath(new URL('./fixtures/descriptor-team.ts', import.meta.url));

test('a turn runs from its descriptor alone, in another process that loads the same team file', async () => {
  const root = tempFolder();
  const store = new FileStore({ root });
  descriptorTeam(root); // the same definition the child loads
  await store.createTeam('desk', { lead: 'lead', members: ['writer'] });
  const { runId } = await store.startRun('desk');
  await store.transact('desk', ({ board, emit }) => {
    emit({ type: 'team:start', data: { lead: 'lead', members: ['writer'], input: 'Write it' } });
    board.createTask({ title: 'Draft' }, 'lead');
  });
  const run = foldEvents(await store.readEvents(runId as string));
  const decision = {
    kind: 'turn',
    agent: 'writer',
    reason: 'task',
    taskId: 'task-1',
    messageIds: [],
  } as const;
  const turn = await store.transact('desk', (rules) =>
    startTurn(rules, run, decision, { threadId: null, countsCost: false }),
  );
  // Plain data: it crosses a process boundary as JSON.
  expect(JSON.parse(JSON.stringify(turn))).toEqual(turn);

  const output = await runScript(teamFile, [root, JSON.stringify(turn)]);
  const outcome = JSON.parse(output.trim().split('\n').at(-1) as string);
  expect(outcome).toMatchObject({ kind: 'done', text: `written by writer in turn 1 of ${runId}` });

  // The child's tools acted as the writer on the same store: its message is in the log.
  const sent = (await store.readEvents(runId as string)).filter(
    (event) => event.type === 'team:message-sent',
  );
  expect(sent.map((event) => event.data)).toEqual([
    expect.objectContaining({ from: 'writer', to: ['lead'], content: 'on task-1' }),
  ]);
  const task = await store.transact('desk', ({ board }) => board.getTask('task-1'));
  expect(task).toMatchObject({ status: 'in_progress', owner: 'writer' });
});
