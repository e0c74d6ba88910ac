import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FileStore } from 'agent-teams';
import { describe, expect, test } from 'vitest';
import { tempFolder } from '../../helpers/temp-folder.js';

const setup = { lead: 'editor', members: ['researcher', 'writer'] };

async function runWithEvents(root: string, count: number) {
  const store = new FileStore({ root });
  await store.createTeam('newsroom', setup);
  const { runId } = await store.startRun('newsroom');
  for (let index = 0; index < count; index++) {
    await store.transact('newsroom', ({ board }) => board.createTask({ title: `Task ${index}` }, 'editor'));
  }
  return { store, runId: runId as string, log: path.join(root, `runs/${runId}/events.jsonl`) };
}

const seqs = (events: readonly { seq: number }[]) => events.map((event) => event.seq);

describe('FileStore event log reads', () => {
  test('a reader catches up on what another store appended, from where it stood', async () => {
    const root = tempFolder();
    const { store, runId } = await runWithEvents(root, 3);
    const reader = new FileStore({ root });
    expect(seqs(await reader.readEvents(runId))).toEqual([1, 2, 3]);
    await store.transact('newsroom', ({ board }) => board.claimTask('writer'));
    await store.transact('newsroom', ({ mailbox }) => mailbox.send('writer', 'lead', 'on it'));
    expect(seqs(await reader.readEvents(runId, { afterSeq: 3 }))).toEqual([4, 5]);
    expect(seqs(await reader.readEvents(runId, { afterSeq: 1 }))).toEqual([2, 3, 4, 5]);
    expect(seqs(await reader.readEvents(runId))).toEqual([1, 2, 3, 4, 5]);
  });

  test("an earlier run's log replaced by a shorter one is read again from its start", async () => {
    const root = tempFolder();
    const { store, runId, log } = await runWithEvents(root, 4);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3, 4]);
    // The current run's log may not shrink (see file-recovery): this one is history now.
    await store.leaveRun('newsroom', runId);
    await store.startRun('newsroom', { fresh: false });
    const [first, second] = readFileSync(log, 'utf8').split('\n');
    writeFileSync(log, `${first}\n${second}\n`);
    expect(seqs(await store.readEvents(runId, { afterSeq: 1 }))).toEqual([2]);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2]);
  });

  test('a torn last line is no event until its append is finished, then it is read once', async () => {
    const root = tempFolder();
    const { store, runId, log } = await runWithEvents(root, 2);
    const whole = readFileSync(log, 'utf8');
    const lines = whole.split('\n');
    const third = JSON.stringify({ ...JSON.parse(lines[1] as string), seq: 3 });
    writeFileSync(log, `${whole}${third.slice(0, 20)}`);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2]);
    expect(seqs(await store.readEvents(runId, { afterSeq: 2 }))).toEqual([]);
    appendFileSync(log, `${third.slice(20)}\n`);
    expect(seqs(await store.readEvents(runId, { afterSeq: 2 }))).toEqual([3]);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3]);
  });

  test('a broken line is refused with its line number, also when only the tail is read', async () => {
    const root = tempFolder();
    const { store, runId, log } = await runWithEvents(root, 3);
    expect(seqs(await store.readEvents(runId))).toEqual([1, 2, 3]);
    appendFileSync(log, 'not json\n');
    await expect(store.readEvents(runId, { afterSeq: 3 })).rejects.toMatchObject({
      code: 'corrupt-file',
      message: expect.stringContaining('broken at line 4: it is not valid JSON'),
    });
  });

  // Broken in place, at its length (the commit stamp records the log's length in bytes, so a
  // line cut short or grown is refused already): JSON still, but not the event it was.
  test.each([
    [
      'a field renamed',
      (line: string) => line.replace('"seq":2', '"seX":2'),
      'its seq is undefined, where one past 1 is due',
    ],
    ['an object with no type', (line: string) => `${' '.repeat(line.length - 2)}{}`, 'it is not an event'],
    ['not an object', (line: string) => `${' '.repeat(line.length - 4)}null`, 'it is not an event'],
    [
      'its seq changed',
      (line: string) => line.replace('"seq":2', '"seq":1'),
      'its seq is 1, where one past 1 is due',
    ],
  ])(
    'a line broken in place (%s) is refused, naming the file and line, by every reader',
    async (_name, breakLine, problem) => {
      const root = tempFolder();
      const { store, runId, log } = await runWithEvents(root, 3);
      await store.leaveRun('newsroom', runId);
      const lines = readFileSync(log, 'utf8').split('\n');
      lines[1] = breakLine(lines[1] as string);
      writeFileSync(log, lines.join('\n'));
      const refused = {
        code: 'corrupt-file',
        message: expect.stringContaining(`${log} is broken at line 2: ${problem}`),
      };
      await expect(new FileStore({ root }).readEvents(runId)).rejects.toMatchObject(refused);
      await expect(store.readEvents(runId, { afterSeq: 1 })).rejects.toMatchObject(refused);
      await expect(new FileStore({ root }).resumeRun('newsroom')).rejects.toMatchObject(refused);
      await expect(new FileStore({ root }).readEvents(runId)).rejects.toThrow(
        /Restore the file from a backup, or start the team afresh/,
      );
    },
  );
});
