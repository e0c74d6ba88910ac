// One process of the contention benchmark (bench/board.ts) on a FileStore: see `race`.
import { FileStore } from '../src/index.js';
import { race } from './board-work.js';

const [root, team, member, startAt] = process.argv.slice(2) as [string, string, string, string];
await race(new FileStore({ root }), [team], member, Number(startAt));
