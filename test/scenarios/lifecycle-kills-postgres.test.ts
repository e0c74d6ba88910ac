import { describe } from 'vitest';
import { reachable, suite } from './lifecycle-kills.js';

// SIGKILL around each decision of a run's lifecycle, on PostgreSQL (see lifecycle-kills.ts).
describe.skipIf(!reachable)('PostgreSQL', () => suite('postgres'));
