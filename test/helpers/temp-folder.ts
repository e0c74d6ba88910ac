import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A new empty folder, removed after the test file. */
export function tempFolder(prefix = 'agent-teams-'): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}
