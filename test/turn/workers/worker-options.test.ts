import { Agent, MemoryStore, Team } from 'agent-teams';
import { scriptedModel } from 'agent-teams/testing';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { startTurnWorker } from '../../../src/turn/workers/turn-worker.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../../store/postgres/database.js';

const reachable = await postgresReachable();
const stores = postgresStores();
const model = scriptedModel([]);
const team = new Team({
  name: 'crew',
  lead: new Agent({ name: 'lead', model, instructions: 'Plan.' }),
  members: [new Agent({ name: 'a', model, instructions: 'Work.' })],
});

/** Whether pg-boss made its schema beside the store's: it does when a worker starts. */
async function bossStarted(schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'SELECT 1 FROM information_schema.schemata WHERE schema_name = $1',
      [`${schema}_boss`],
    );
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe.skipIf(!reachable)('startTurnWorker options', () => {
  test('an unknown or bad option is refused, naming it, before pg-boss starts', async () => {
    const store = stores.make();
    const refusals: [unknown, string][] = [
      [
        { teams: [team], store, concurency: 2 },
        'Unknown option "concurency" for startTurnWorker; the known ones are teams, store, concurrency, onTurn, onError.',
      ],
      [
        { teams: [team], store, concurrency: 0 },
        'concurrency of startTurnWorker must be a whole number from 1 to 64, not 0.',
      ],
      [
        { teams: [team], store, concurrency: 1e9 },
        'concurrency of startTurnWorker must be a whole number from 1 to 64, not 1000000000.',
      ],
      [{ teams: [], store }, 'teams of startTurnWorker must be a list of at least one team, not [].'],
      [
        { teams: [team], store: new MemoryStore() },
        'store of startTurnWorker must be a PostgresStore, not {}.',
      ],
      [
        { teams: [team], store, onTurn: 'log' },
        'onTurn of startTurnWorker must be a function told of each turn, not "log".',
      ],
    ];
    for (const [options, message] of refusals) {
      await expect(startTurnWorker(options as never)).rejects.toThrow(
        expect.objectContaining({ code: 'invalid-option', message }),
      );
    }
    expect(await bossStarted(store.schema)).toBe(false);
  });
});
