import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type TeamEvent, type TeamRunResult } from 'agent-teams';
import { expect, test } from 'vitest';
import { runScript } from '../helpers/child.js';
import { seeds } from '../helpers/seeds.js';
import { tempFolder } from '../helpers/temp-folder.js';

const fixture = fileURLToPath(new URL('./fixtures/chatty-run.mjs', import.meta.url));

function logOf(root: string): TeamEvent[] {
  try {
    const config = JSON.parse(readFileSync(path.join(root, 'teams/chatty/config.json'), 'utf8'));
    const lines = readFileSync(path.join(root, `runs/${config.runId}/events.jsonl`), 'utf8').split('\n');
    lines.pop();
    return lines.map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** Starts a fresh run and kills it with SIGKILL once its log holds `events` events. */
async function killAt(root: string, events: number): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [fixture, root, 'fresh'], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  while (logOf(root).length < events) {
    if (child.exitCode !== null) throw new Error(`the run ended before its ${events}th event`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill('SIGKILL');
  await exited;
}

/**
 * Kill points by seed: while the lead plans (the log has 3 to 6 events: the start, the lead's
 * turn, some of its tasks), or anywhere in the work after it.
 */
const kills = [
  ...seeds(20, 'KILL_SEEDS').map((seed) => ['while the lead plans', seed, 3 + (seed % 4)] as const),
  ...seeds(20, 'KILL_SEEDS').map((seed) => ['during the work', seed, 7 + ((seed * 13) % 40)] as const),
];

test.concurrent.each(kills)(
  'a run killed %s (seed %i) resumes with no task doubled or done twice and no message lost or sent twice',
  async (_when, _seed, killPoint) => {
    const root = tempFolder();
    await killAt(root, killPoint);
    const output = await runScript(fixture, [root, 'resume']);
    const result = JSON.parse(output.trim().split('\n').at(-1) as string) as TeamRunResult;
    expect(result.teamResult.stopReason).toBe('completed');
    // Planning replayed by a lead that ignores its briefing doubles nothing.
    expect(result.teamResult.tasks.map((task) => task.title)).toEqual([
      'Survey',
      'Gather',
      'Analyse',
      'Finish',
    ]);
    const log = logOf(root);
    for (const task of result.teamResult.tasks) {
      const completions = log.filter(
        (event) => event.type === 'team:task-completed' && event.data.task.id === task.id,
      );
      expect(completions, task.id).toHaveLength(1);
    }
    // Every message reached a turn of each reader that ended (a turn cut off by the kill does not count).
    const ended = new Set(
      log
        .filter((event) => event.type === 'team:member-finished')
        .map((e) => `${e.data.member}#${e.data.turn}`),
    );
    const delivered = new Set<string>();
    for (const event of log) {
      if (event.type !== 'team:member-started' || !ended.has(`${event.data.member}#${event.data.turn}`))
        continue;
      for (const id of event.data.messageIds) delivered.add(`${event.data.member}:${id}`);
    }
    // Or given to such a turn between its steps (they came while it ran).
    for (const event of log) {
      if (event.type !== 'team:turn-prompt' || !ended.has(`${event.data.agent}#${event.data.turn}`)) continue;
      for (const id of event.data.messageIds ?? []) delivered.add(`${event.data.agent}:${id}`);
    }
    const sent = log.filter((event) => event.type === 'team:message-sent');
    expect(sent.length).toBeGreaterThan(0);
    // A turn the kill cut is replayed under its number: the messages it had sent are not sent again.
    const written = sent
      .filter((event) => !event.data.automatic)
      .map((event) => `${event.data.from} → ${event.data.to.join(',')}: ${event.data.content}`);
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((line, index) => written.indexOf(line) !== index)).toEqual([]);
    for (const event of sent) {
      for (const reader of event.data.to)
        expect(delivered, `${event.data.id} to ${reader}`).toContain(`${reader}:${event.data.id}`);
    }
    const store = new FileStore({ root });
    const unread = await store.transact('chatty', ({ mailbox }) =>
      ['lead', 'a', 'b', 'c'].flatMap((agent) => mailbox.unread(agent)),
    );
    expect(unread).toEqual([]);
  },
  120_000, // two child processes a trial, five trials at once on two cores
);
