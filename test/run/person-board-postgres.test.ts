import { describe } from 'vitest';
import { postgresReachable, postgresStores } from '../store/postgres/database.js';
import { leadGraphCases, personBoardCases } from './person-board-cases.js';

const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('PostgresStore', () => {
  personBoardCases('PostgresStore', () => stores.make());
  leadGraphCases('PostgresStore', () => stores.make());
});
