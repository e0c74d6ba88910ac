// What a member turn costs PostgreSQL, counted at the client: the statements a PostgresStore
// sends (each statement of a multi-statement text counted) and the transactions it commits
// (each COMMIT, and each text sent outside a transaction: its statements are one transaction),
// divided by the member turns of an in-process run on the scripted model (no latency,
// pre-seeded tasks the members self-claim), and the hand-off on a chain (one member's turn finished to the next one's start). Then one
// team's board raced by 8 processes (claim, then complete, each a transaction) beside a bare
// loop of 8 sessions on the same server, each transaction locking one shared row, updating it
// and sending a NOTIFY: the store's transactions per second as a share of that limit.
// Run: npm run bench:pg-statements   (AGENT_TEAMS_POSTGRES_URL picks the server; default
// postgres://postgres@127.0.0.1:5432/test). Each run has a schema of its own, dropped after.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Agent, type NewTask, Team } from '../src/index.js';
import { PostgresStore } from '../src/postgres.js';
import { scriptedModel } from '../src/testing.js';
import { bareLoop, dropSchema, race as raceOn } from './postgres-race.js';
import { median } from './turn-cost.js';

const url = process.env.AGENT_TEAMS_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface Counts {
  /** Texts sent: one round trip each. */
  texts: number;
  statements: number;
  commits: number;
  byKind: Map<string, number>;
}

const counts: Counts = { texts: 0, statements: 0, commits: 0, byKind: new Map() };
const inTransaction = new WeakSet<object>();

/** The first words of each statement of a text, to tell what the statements are. */
function kindsOf(text: string): string[] {
  return text
    .split(/;\s*(?=[A-Z])/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const words = part.replace(/\s+/g, ' ').split(' ');
      if (words[0] === 'WITH') return 'WITH … (write)';
      const from = /FROM ("?\w+"?\.)?(\w+)/.exec(part);
      return words[0] === 'SELECT' && from ? `SELECT … FROM ${from[2]}` : words.slice(0, 2).join(' ');
    });
}

// Every query of every connection (the pool's and the listener's) goes through here.
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
  this: object,
  ...args: unknown[]
) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
  if (
    typeof text === 'string' &&
    counting &&
    process.env.BENCH_STACK &&
    text.includes(process.env.BENCH_STACK)
  )
    console.error(new Error('stack').stack?.split('\n').slice(2, 9).join('\n'));
  if (typeof text === 'string' && counting) {
    counts.texts++;
    // Statements of one text sent outside a transaction are one (implicit) transaction.
    let implicit = false;
    for (const kind of kindsOf(text)) {
      counts.statements++;
      counts.byKind.set(kind, (counts.byKind.get(kind) ?? 0) + 1);
      if (kind.startsWith('BEGIN')) inTransaction.add(this);
      else if (kind.startsWith('COMMIT') || kind.startsWith('ROLLBACK')) {
        if (kind.startsWith('COMMIT')) counts.commits++;
        inTransaction.delete(this);
      } else if (!inTransaction.has(this)) implicit = true;
    }
    if (implicit) counts.commits++;
  }
  return original.apply(this, args);
};
let counting = false;

function tasksOf(chain: boolean, count: number): NewTask[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `task-${index + 1}`,
    title: `Task ${index + 1}`,
    ...(chain && index > 0 ? { dependsOn: [`task-${index}`] } : {}),
  }));
}

async function teamRun(chain: boolean, tasks: number, members: number) {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const store = new PostgresStore({ connectionString: url, schema });
  const model = scriptedModel((call) => (call.taskId ? `done ${call.taskId}` : 'Go.'));
  const names = Array.from({ length: members }, (_, index) => `m${index + 1}`);
  const team = new Team({
    name: 'bench',
    store,
    lead: new Agent({ name: 'lead', model, instructions: '' }),
    members: names.map((name) => new Agent({ name, model, instructions: '' })),
    tasks: tasksOf(chain, tasks),
    maxTasks: tasks,
    maxConcurrentMembers: members,
    maxTurnsPerMember: tasks,
    synthesize: false,
  });
  let turns = 0;
  const handOffs: number[] = [];
  let finishedAt: number | undefined;
  team.on('team:member-started', (event) => {
    if (event.data.role === 'member' && finishedAt !== undefined)
      handOffs.push(performance.now() - finishedAt);
  });
  team.on('team:member-finished', (event) => {
    if (event.data.role !== 'member') return;
    turns++;
    finishedAt = performance.now();
  });
  // The schema is made before counting: its migration is once per store, not per turn.
  await store.listRuns();
  const before = { texts: counts.texts, statements: counts.statements, commits: counts.commits };
  const kindsBefore = new Map(counts.byKind);
  counting = true;
  const result = await team.run({ input: 'Do the tasks.' });
  counting = false;
  if (result.teamResult.stopReason !== 'completed')
    throw new Error(`run ended ${result.teamResult.stopReason}`);
  await store.close();
  await dropSchema(url, schema);
  const kinds = [...counts.byKind]
    .map(([kind, count]) => [kind, (count - (kindsBefore.get(kind) ?? 0)) / turns] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  return {
    turns,
    statements: (counts.statements - before.statements) / turns,
    texts: (counts.texts - before.texts) / turns,
    commits: (counts.commits - before.commits) / turns,
    kinds,
    handOff: handOffs.length > 0 ? median(handOffs) : Number.NaN,
  };
}

const PROCESSES = 8;

const TASKS = Number(process.env.BENCH_TASKS ?? 24);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 3);
const ROUNDS = 3;

console.log(
  `${TASKS} independent tasks, ${MEMBERS} members; a chain of ${TASKS} tasks; ${ROUNDS} rounds each, median\n`,
);
const wide = [];
const chain = [];
await teamRun(false, 6, MEMBERS); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  wide.push(await teamRun(false, TASKS, MEMBERS));
  chain.push(await teamRun(true, TASKS, MEMBERS));
}
const fmt = (value: number) => value.toFixed(1);
console.log(
  '| workload | member turns | statements per member turn | round trips per member turn | commits per member turn | hand-off ms (median) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, runs] of [
  ['independent', wide],
  ['chain', chain],
] as const) {
  console.log(
    `| ${name} | ${runs[0]?.turns} | ${fmt(median(runs.map((run) => run.statements)))} | ${fmt(median(runs.map((run) => run.texts)))} | ${fmt(median(runs.map((run) => run.commits)))} | ${fmt(median(runs.map((run) => run.handOff)))} |`,
  );
}
console.log('\nStatements per member turn by kind (independent, last round):');
for (const [kind, count] of wide.at(-1)?.kinds ?? [])
  console.log(`  ${count.toFixed(2).padStart(6)}  ${kind}`);

if (process.env.BENCH_RACE !== '0') {
  const bare: number[] = [];
  const race: number[] = [];
  // Interleaved: the store's race between two bare loops, twice.
  bare.push(await bareLoop(url, { sessions: PROCESSES, ms: 3000 }));
  for (let round = 0; round < 2; round++) {
    race.push((await raceOn(url, { processes: PROCESSES, tasks: 1000 })).transactionsPerSecond);
    bare.push(await bareLoop(url, { sessions: PROCESSES, ms: 3000 }));
  }
  const limit = median(bare);
  const store = median(race);
  console.log(`\n| one team, ${PROCESSES} processes | transactions per s |`);
  console.log('| --- | ---: |');
  console.log(
    `| bare loop: lock one row, update it, NOTIFY, commit (${PROCESSES} sessions; median of ${bare.length}) | ${limit.toFixed(0)} |`,
  );
  console.log(
    `| PostgresStore: claim, then complete, 1000 tasks (median of ${race.length}) | ${store.toFixed(0)} |`,
  );
  console.log(`| share of the bare loop | ${(store / limit).toFixed(2)} |`);
}
