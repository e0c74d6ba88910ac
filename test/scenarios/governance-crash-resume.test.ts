import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { permissionTeam } from './fixtures/permission-team.js';

const runner = fileURLToPath(new URL('./fixtures/run-permission-team.ts', import.meta.url));

/** Runs the team fresh in a child process and kills it (SIGKILL) once a request is open. */
async function crashWithOpenRequest(store: string, workspace: string): Promise<TeamEvent[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', runner, store, workspace], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const files = new FileStore({ root: store });
  for (;;) {
    const runId = (await files.getTeam('governed').catch(() => undefined))?.runId;
    const events = runId ? await files.readEvents(runId) : [];
    if (events.some((event) => event.type === 'team:request-opened')) break;
    if (child.exitCode !== null) throw new Error('the run ended before its request opened');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill('SIGKILL');
  await exited;
  await files.close();
  const runId = (await new FileStore({ root: store }).getTeam('governed'))?.runId as string;
  return new FileStore({ root: store }).readEvents(runId);
}

test('a run killed while a request is open resumes with it open; the answer after the resume reaches the agent', async () => {
  const folder = tempFolder();
  const store = path.join(folder, '.agent-teams');
  const workspace = path.join(folder, 'work');
  mkdirSync(workspace);
  const before = await crashWithOpenRequest(store, workspace);
  const opened = before.find((event) => event.type === 'team:request-opened');
  expect(opened?.data).toMatchObject({ kind: 'permission', from: 'writer', to: 'user', path: 'notes.md' });
  expect(before.some((event) => event.type === 'team:complete')).toBe(false);

  const { team, model } = permissionTeam(store, workspace);
  const run = await team.start({ input: 'Write the notes', fresh: false });
  expect(run.runId).toBe(opened?.runId);
  const requestId = opened?.type === 'team:request-opened' ? opened.data.requestId : '';
  let answered = false;
  for await (const event of run.events()) {
    // Once the resume is committed, the person answers the request opened before the crash.
    if (event.type === 'team:resumed' && !answered) {
      answered = true;
      await run.respond(requestId, { approve: true, feedback: 'Go ahead.' });
    }
  }
  const result = await run.result;
  expect(result.teamResult.stopReason).toBe('completed');
  // The write first asked for, made once for the writer.
  expect(readFileSync(path.join(workspace, 'notes.md'), 'utf8')).toBe('notes by turn 1');
  // The writer took its task back at the resume and went on with the answer in its briefing.
  const writer = model.calls.filter((call) => call.agent === 'writer');
  expect(writer[0]?.prompt).toContain(
    `${requestId} (permission: writer asks to write_file notes.md): approved by user; the call is made for you as you asked it. Feedback: Go ahead.`,
  );
  expect(writer[0]?.taskId).toBe('task-1');
  const log = await team.store.readEvents(run.runId);
  expect(log.filter((event) => event.type === 'team:request-opened')).toHaveLength(1);
  expect(log.filter((event) => event.type === 'team:task-completed')).toHaveLength(1);
  expect(result.teamResult.tasks[0]?.result).toContain('"success":true');
}, 60_000);

test('an answer given while the run is down (agent-teams respond after the crash) reaches the agent once it resumes', async () => {
  const folder = tempFolder();
  const store = path.join(folder, '.agent-teams');
  const workspace = path.join(folder, 'work');
  mkdirSync(workspace);
  const before = await crashWithOpenRequest(store, workspace);
  const opened = before.find((event) => event.type === 'team:request-opened');
  const requestId = opened?.type === 'team:request-opened' ? opened.data.requestId : '';
  const answered = await cli(['respond', 'governed', requestId, '--reject', '--feedback', 'Not now.'], {
    cwd: folder,
  });
  expect(answered.stdout).toBe(`rejected ${requestId} (permission from writer) in governed\n`);

  const { team, model } = permissionTeam(store, workspace);
  const result = await team.run({ input: 'Write the notes', fresh: false });
  const writer = model.calls.filter((call) => call.agent === 'writer');
  expect(writer[0]?.prompt).toContain(
    `${requestId} (permission: writer asks to write_file notes.md): rejected by user. Feedback: Not now.`,
  );
  expect(result.teamResult.tasks[0]?.result).toContain(
    'Permission to write_file notes.md was denied (by user): Not now.',
  );
  expect(() => readFileSync(path.join(workspace, 'notes.md'))).toThrow();
}, 60_000);
