// One process of the PostgreSQL contention benchmark (bench/postgres.ts): see `race`.
import { PostgresStore } from '../src/postgres.js';
import { race } from './board-work.js';

const [connectionString, schema, team, member, startAt, synchronous] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const synchronousCommit = synchronous !== 'false';
const store = new PostgresStore({ connectionString, schema, poolSize: 2, synchronousCommit });
await race(store, team, member, Number(startAt));
