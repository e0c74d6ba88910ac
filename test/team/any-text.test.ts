import { Agent, FileStore, MemoryStore, Team, type TeamStore } from 'agent-teams';
import { startTurnWorker } from 'agent-teams/postgres';
import { scriptedModel } from 'agent-teams/testing';
import { describe, expect, test } from 'vitest';
import { tempFolder } from '../helpers/temp-folder.js';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';

// A model may answer anything a JavaScript string holds, U+0000 and lone surrogates too; a
// run keeps it on every store, as it was said.
const reachable = await postgresReachable();
const postgres = postgresStores();

const ODD = 'nul \u0000, lone \uD800 and \uDFFF, reversed \uDC00\uD83D, whole 😀, escape \uFFFF0000';

function team(store: TeamStore, executor: 'in-process' | 'workers' = 'in-process'): Team {
  const model = scriptedModel((call) => {
    if (call.agent === 'lead') {
      if (call.reason === 'start')
        return {
          toolCalls: [{ toolName: 'create_task', input: { title: `Echo ${ODD}`, assignee: 'echo' } }],
        };
      return call.reason === 'synthesis' ? `Answer: ${ODD}` : 'Noted.';
    }
    if (call.step === 0)
      return { toolCalls: [{ toolName: 'send_message', input: { to: 'lead', content: `Note: ${ODD}` } }] };
    return `Result: ${ODD}`;
  });
  const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.` });
  return new Team({ name: 'odd', lead: agent('lead'), members: [agent('echo')], store, executor });
}

const stores: [string, () => TeamStore][] = [
  ['MemoryStore', () => new MemoryStore()],
  ['FileStore', () => new FileStore({ root: tempFolder() })],
  ...(reachable ? [['PostgresStore', () => postgres.make()] as [string, () => TeamStore]] : []),
];

async function expectIntact(store: TeamStore, odd: Team): Promise<void> {
  const result = await odd.run({ input: `Echo this: ${ODD}` });
  expect(result.teamResult.stopReason).toBe('completed');
  expect(result.output).toBe(`Answer: ${ODD}`);
  expect(result.teamResult.tasks.map((task) => [task.title, task.result])).toEqual([
    [`Echo ${ODD}`, `Result: ${ODD}`],
  ]);
  const inbox = await store.transact('odd', ({ mailbox }) => mailbox.messages('lead'));
  expect(inbox.map((message) => message.content)).toContain(`Note: ${ODD}`);
  const events = await store.readEvents(result.runId);
  const start = events.find((event) => event.type === 'team:start');
  expect(start?.type === 'team:start' && start.data.input).toBe(`Echo this: ${ODD}`);
}

describe.each(stores)('on a %s', (_name, makeStore) => {
  test('a run whose model replies with U+0000 and lone surrogates completes with the text intact', async () => {
    const store = makeStore();
    await expectIntact(store, team(store));
  });
});

// Turns on workers carry the run's input and its summaries in their jobs, which pg-boss keeps as jsonb.
test.skipIf(!reachable)('on workers too: the texts travel in the turns’ jobs intact', async () => {
  const schema = postgres.make().schema;
  const store = postgres.make(schema);
  const odd = team(store, 'workers');
  const worker = await startTurnWorker({ teams: [odd], store: postgres.make(schema) });
  try {
    await expectIntact(store, odd);
  } finally {
    await worker.stop();
  }
});
