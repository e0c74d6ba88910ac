import type { PostgresStore } from 'agent-teams/postgres';
import { describe } from 'vitest';
import { storeConformance } from '../conformance.js';
import { postgresReachable, postgresStores } from './database.js';

const reachable = await postgresReachable();
const stores = postgresStores();

describe.skipIf(!reachable)('PostgresStore', () => {
  storeConformance(
    'PostgresStore',
    () => stores.make(),
    (store) => stores.make((store as PostgresStore).schema),
  );
});
