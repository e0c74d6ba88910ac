// A run at scale: 1,000 pre-seeded independent tasks, 50 members, and members that message
// each other (each task turn sends 10 messages to teammates before it ends), on the
// MemoryStore, the FileStore and PostgreSQL, each in a fresh process on the built package
// (bench/fixtures/scale-run.mjs, plain node: run `npm run build` first): wall time, the
// process's peak RSS, the messages and turns, and the store's size on disk.
// Run: npm run bench:scale (`-- --tasks 200 --members 10` for a smaller one; `-- --stores memory,file`
// to leave PostgreSQL out; AGENT_TEAMS_POSTGRES_URL picks its server).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const TASKS = option('tasks', '1000');
const MEMBERS = option('members', '50');
const SENDS = option('sends', '10');
const STORES = option('stores', 'memory,file,postgres').split(',');

if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
  throw new Error('bench:scale runs the built package: run `npm run build` first');
}
console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`);
console.log(
  `${TASKS} tasks, ${MEMBERS} members, ${SENDS} messages per task turn; each store in a fresh process (plain node on dist/)\n`,
);
console.log(
  '| store | stop reason | tasks completed | member turns | messages | wall s | RSS after loading MB | peak RSS MB | on disk MB |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const script = fileURLToPath(new URL('./fixtures/scale-run.mjs', import.meta.url));
for (const kind of STORES) {
  const run = JSON.parse(
    execFileSync(process.execPath, [script, kind, TASKS, MEMBERS, SENDS], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    }),
  );
  const disk = run.diskBytes === null ? '–' : (run.diskBytes / 1024 / 1024).toFixed(1);
  console.log(
    `| ${kind} | ${run.stopReason} | ${run.completed} | ${run.memberTurns} | ${run.messages} | ${(run.wallMs / 1000).toFixed(1)} | ${run.loadedRssMb.toFixed(0)} | ${run.peakRssMb.toFixed(0)} | ${disk} |`,
  );
}
