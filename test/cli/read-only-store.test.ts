import * as fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

/** Every file and folder under `root` with its modification time and size. */
function snapshot(root: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      const stat = fs.statSync(file, { bigint: true });
      seen.set(file, `${stat.mtimeNs} ${stat.size} ${stat.mode}`);
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(root);
  return seen;
}

function chmodAll(root: string, mode: (isFolder: boolean) => number): void {
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    fs.chmodSync(file, mode(entry.isDirectory()));
  }
  fs.chmodSync(root, mode(true));
}

// The inspection commands only read: they work on a store folder nobody may write to (the
// tests run as root, whom permissions do not stop, so what proves it is that no file or
// folder changes, not even for a moment: a lock taken and released moves its folder's time).
test('tasks, inbox, logs and teams read a read-only store and change nothing in it', async () => {
  const made = tempFolder();
  expect((await cli(['demo', '--fast'], { cwd: made })).code).toBe(0);
  const copy = tempFolder();
  fs.cpSync(path.join(made, '.agent-teams'), path.join(copy, '.agent-teams'), { recursive: true });
  const store = path.join(copy, '.agent-teams');
  chmodAll(store, (isFolder) => (isFolder ? 0o555 : 0o444));
  try {
    const before = snapshot(store);
    const tasks = await cli(['tasks'], { cwd: copy });
    expect(tasks.stderr).toBe('');
    expect(tasks.code).toBe(0);
    expect(tasks.stdout).toMatch(/newsroom-demo \(\d+ tasks?\)/);
    expect(tasks.stdout).toContain('completed');
    for (const args of [['inbox', 'newsroom-demo', 'editor'], ['logs', 'newsroom-demo'], ['teams']]) {
      const run = await cli(args, { cwd: copy });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
    expect(snapshot(store)).toEqual(before);
  } finally {
    chmodAll(store, (isFolder) => (isFolder ? 0o755 : 0o644));
  }
}, 120_000);
