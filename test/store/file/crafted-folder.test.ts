import * as fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore } from 'agent-teams';
import { beforeAll, describe, expect, test } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { tempFolder } from '../../helpers/temp-folder.js';

// A store folder arrives crafted (unpacked, cloned, copied with its links): a link inside it,
// or a journal naming a path through one or out of it, must never make a command write
// outside the store, not even one asked only to read. Each case crafts a copy of one store
// next to a folder `outside`, runs each command on it, and compares `outside` before and after.

const teamFile = fileURLToPath(new URL('../fixtures/one-member-team.ts', import.meta.url));

/** Every file and folder under `folder` with its modification time, size and content. */
function snapshot(folder: string): Map<string, string> {
  const seen = new Map<string, string>();
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.lstatSync(file, { bigint: true });
    const content = entry.isFile() ? fs.readFileSync(file, 'utf8') : '';
    seen.set(path.relative(folder, file), `${stat.mtimeNs} ${stat.size} ${content}`);
  }
  const top = fs.statSync(folder, { bigint: true });
  seen.set('.', String(top.mtimeNs));
  return seen;
}

/** A journal ahead of the stamp (an unfinished commit), naming `files` and a log. */
function writeJournal(store: string, files: { path: string; content: string }[], log?: string): void {
  const stamp = JSON.parse(fs.readFileSync(path.join(store, 'tasks/t/.version'), 'utf8'));
  const version = stamp.version + 5;
  const body = JSON.stringify({
    files,
    log: log ? { path: log, lines: [{ seq: stamp.eventSeq + 1, line: '{"seq":999}' }] } : null,
    stamp: { ...stamp, version },
  });
  const field = (n: number) => String(n).padStart(15, '0');
  fs.writeFileSync(
    path.join(store, 'tasks/t/.journal'),
    `${field(version)}\n${field(Buffer.byteLength(body))}\n${body}`,
  );
}

/** Moves `relative` of the store to `outside` and leaves a link to it in its place; answers `relative`. */
function linkOut(store: string, outside: string, relative: string): string {
  const target = path.join(outside, path.basename(relative));
  fs.renameSync(path.join(store, relative), target);
  fs.symlinkSync(target, path.join(store, relative));
  return relative;
}

let template: string;
let runId: string;
beforeAll(async () => {
  // A run of the team with a task and a message, left by its process: `resume` continues it.
  template = path.join(tempFolder(), '.agent-teams');
  const store = new FileStore({ root: template });
  await store.createTeam('t', { lead: 'lead', members: ['a'] });
  runId = (await store.startRun('t')).runId as string;
  await store.transact('t', ({ board, mailbox, emit }) => {
    emit({ type: 'team:start', data: { lead: 'lead', members: ['a'], input: 'Look' } });
    board.createTask({ title: 'Look' }, 'lead');
    return mailbox.send('lead', 'a', 'Look at it');
  });
  await store.leaveRun('t', runId);
  await store.close();
});

const cases: [string, (store: string, outside: string) => string][] = [
  [
    'a journal naming a file through a link in the team’s folder',
    (store, outside) => {
      fs.symlinkSync(outside, path.join(store, 'tasks/t/evil'));
      writeJournal(store, [{ path: 'tasks/t/evil/task-9.json', content: 'pwned\n' }]);
      return 'tasks/t/evil/task-9.json';
    },
  ],
  [
    'a journal naming a path out of the store',
    (store) => {
      writeJournal(store, [{ path: 'tasks/t/../../../outside/pwned.json', content: 'pwned\n' }]);
      return 'outside/pwned.json';
    },
  ],
  [
    'a journal whose log is in a linked run folder',
    (store, outside) => {
      linkOut(store, outside, `runs/${runId}`);
      writeJournal(store, [{ path: 'tasks/t/task-1.json', content: '{}' }], `runs/${runId}/events.jsonl`);
      return `runs/${runId}`;
    },
  ],
  ['the team’s task folder linked out', (store, outside) => linkOut(store, outside, 'tasks/t')],
  ['the team’s inboxes linked out', (store, outside) => linkOut(store, outside, 'teams/t/inboxes')],
  ['the run’s folder linked out', (store, outside) => linkOut(store, outside, `runs/${runId}`)],
  [
    'the change log a link to a file outside',
    (store, outside) => linkOut(store, outside, 'tasks/t/.changes'),
  ],
];

const commands: [string, string[]][] = [
  ['tasks', ['tasks']],
  ['logs', ['logs', 't']],
  ['send', ['send', 't', 'a', 'Hello']],
  ['resume', ['resume', teamFile]],
];

describe('a crafted store folder', () => {
  test.each(
    cases.flatMap(([name, craft]) =>
      commands.map(([command, args]) => [name, command, craft, args] as const),
    ),
  )(
    '%s: agent-teams %s writes nothing outside the store, and a refusal names the place',
    async (_name, _command, craft, args) => {
      const folder = tempFolder();
      const store = path.join(folder, '.agent-teams');
      const outside = path.join(folder, 'outside');
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(outside, 'keep.txt'), 'mine\n');
      fs.cpSync(template, store, { recursive: true, verbatimSymlinks: true });
      const named = craft(store, outside);
      const before = snapshot(outside);
      const run = await cli([...args, '--store', store], { cwd: folder });
      expect(snapshot(outside)).toEqual(before);
      // A send to a run no process runs is refused before the store is touched; any other
      // refusal is the store's, naming the place.
      if (run.code !== 0 && !run.stderr.includes('No run of t is going')) {
        expect(run.stderr).toContain(named);
        expect(run.stderr).not.toMatch(/\n\s+at /); // a clear message, not a stack
      }
    },
    30_000,
  );
});
