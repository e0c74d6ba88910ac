import { describe } from 'vitest';
import { taskGraphConformance } from '../task-graph-conformance.js';
import { postgresReachable, postgresStores } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('PostgresStore', () => {
  taskGraphConformance('PostgresStore', () => stores.make());
});
