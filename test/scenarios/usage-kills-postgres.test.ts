import { describe } from 'vitest';
import { reachable, suite } from './usage-kills.js';

// SIGKILL at seeded points of a run on PostgreSQL, resumed: usage equals what the model server served (see usage-kills.ts).
describe.skipIf(!reachable)('PostgreSQL', () => suite('postgres'));
