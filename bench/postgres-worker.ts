// One process of the PostgreSQL races (bench/postgres-race.ts): see `race`. With several teams
// (comma-separated) it works on all of them at once.
import { PostgresStore } from '../src/postgres.js';
import { race } from './board-work.js';

const [connectionString, schema, teams, member, startAt, synchronous] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const synchronousCommit = synchronous !== 'false';
const store = new PostgresStore({ connectionString, schema, poolSize: 2, synchronousCommit });
await race(store, teams.split(','), member, Number(startAt));
