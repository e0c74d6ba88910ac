// A run at scale: 1,000 pre-seeded independent tasks, 50 members, and members that message
// each other (each task turn sends 10 messages to teammates before it ends), on the
// MemoryStore and the FileStore, each in a fresh process: wall time, the process's peak RSS,
// the messages and turns, and the store's size on disk. Run: npm run bench:scale
// (`-- --tasks 200 --members 10` for a smaller one).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, FileStore, MemoryStore, Team } from '../src/index.js';
import { scriptedModel } from '../src/testing.js';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const TASKS = option('tasks', 1000);
const MEMBERS = option('members', 50);
const SENDS = option('sends', 10);

/** Bytes of every file under `folder`. */
function sizeOf(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

async function one(kind: 'memory' | 'file') {
  const loadedRssMb = process.memoryUsage().rss / 1024 / 1024;
  const names = Array.from({ length: MEMBERS }, (_, index) => `m${index + 1}`);
  // A task turn messages teammates, then answers; any other turn answers at once.
  const model = scriptedModel((call) => {
    if (call.reason !== 'task' || call.step > 0 || !call.taskId)
      return call.taskId ? `done ${call.taskId}` : 'ok';
    const number = Number(call.taskId.slice('task-'.length));
    const others = names.filter((name) => name !== call.agent);
    return {
      toolCalls: Array.from({ length: SENDS }, (_, index) => ({
        toolName: 'send_message',
        input: {
          to: others[(number * 7 + index) % others.length],
          content: `note ${index} on ${call.taskId}`,
        },
      })),
    };
  });
  const root = kind === 'file' ? mkdtempSync(path.join(tmpdir(), 'bench-scale-')) : undefined;
  const team = new Team({
    name: 'scale',
    store: root ? new FileStore({ root }) : new MemoryStore(),
    lead: new Agent({ name: 'lead', model, instructions: '' }),
    members: names.map((name) => new Agent({ name, model, instructions: '' })),
    tasks: Array.from({ length: TASKS }, (_, index) => ({
      id: `task-${index + 1}`,
      title: `Task ${index + 1}`,
    })),
    maxTasks: TASKS,
    maxConcurrentMembers: MEMBERS,
    maxTurnsPerMember: TASKS,
    synthesize: false,
  });
  let messages = 0;
  team.on('team:message-sent', () => messages++);
  const start = performance.now();
  const result = await team.run({ input: 'Do the tasks and tell each other.' });
  const wallMs = performance.now() - start;
  const disk = root ? sizeOf(root) : null;
  if (root) rmSync(root, { recursive: true, force: true });
  return {
    stopReason: result.teamResult.stopReason,
    completed: result.teamResult.tasks.filter((task) => task.status === 'completed').length,
    memberTurns: result.teamResult.memberTurns,
    messages,
    wallMs,
    loadedRssMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    diskBytes: disk,
  };
}

const kindAt = process.argv.indexOf('--one');
if (kindAt >= 0) {
  console.log(JSON.stringify(await one(process.argv[kindAt + 1] as 'memory' | 'file')));
} else {
  console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`);
  console.log(
    `${TASKS} tasks, ${MEMBERS} members, ${SENDS} messages per task turn; each store in a fresh process\n`,
  );
  console.log(
    '| store | stop reason | tasks completed | member turns | messages | wall s | RSS after loading MB | peak RSS MB | on disk MB |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const kind of ['memory', 'file'] as const) {
    const script = fileURLToPath(import.meta.url);
    const args = ['--import', 'tsx', script, '--one', kind, ...process.argv.slice(2)];
    const run = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 }));
    const disk = run.diskBytes === null ? '–' : (run.diskBytes / 1024 / 1024).toFixed(1);
    console.log(
      `| ${kind} | ${run.stopReason} | ${run.completed} | ${run.memberTurns} | ${run.messages} | ${(run.wallMs / 1000).toFixed(1)} | ${run.loadedRssMb.toFixed(0)} | ${run.peakRssMb.toFixed(0)} | ${disk} |`,
    );
  }
}
