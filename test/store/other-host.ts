import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TeamEvent, TeamInfo, TeamStore } from 'agent-teams';
import { expect, test } from 'vitest';
import { thisProcess } from '../../src/store/runner-identity.js';
import { cli, startCli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';

// One live run per team, whatever the host: a run started on "another host" (a real child
// process whose host name is AGENT_TEAMS_HOSTNAME=elsewhere, so it cannot know the runner's
// pid) is refused while the runner's lease holds, changes nothing, and the live run completes
// untouched; once the runner is killed, it is refused until the lease has run out, and then
// taken. Each store's test file runs these with its own store.

const teamFile = fileURLToPath(new URL('./fixtures/slow-team.ts', import.meta.url));

export interface HostedStore {
  /** The command's flags that name the store. */
  readonly flags: string[];
  /** The store, as the test's process reads it. */
  readonly store: TeamStore;
  /** When the run's lease was last renewed (ms since the epoch, by the store's clock). */
  renewedAt(runId: string): Promise<number>;
  /** How long a lease lasts without a renewal. */
  readonly leaseMs: number;
  /** Whether the run's lease has run out, as the store decides it. */
  lapsed(runId: string): Promise<boolean>;
  /** Names another process as the run's runner, its lease renewed `ago` ms before now. */
  setRunner(
    runId: string,
    runner: { pid: number; host: string; machine: string },
    ago: number,
  ): Promise<void>;
}

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
}

/** The run from another host: the same team name, another roster, another input. */
const elsewhere = (hosted: HostedStore) =>
  cli(['run', teamFile, '--input', 'Other', '--json', ...hosted.flags], {
    cwd: tempFolder(),
    env: { AGENT_TEAMS_HOSTNAME: 'elsewhere', SLOW_TEAM_ROSTER: 'other' },
  });

/** The run on this host, whose member turns wait until `gate` exists. */
const here = (hosted: HostedStore, gate: string) =>
  startCli(['run', teamFile, '--input', 'Go', '--json', ...hosted.flags], {
    cwd: tempFolder(),
    env: { SLOW_TEAM_GATE: gate },
  });
const gateIn = () => path.join(tempFolder(), 'open');

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 20) {
    if (waited > 60_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The team's current run once it is live with a task logged, and its id. */
async function liveRun(hosted: HostedStore): Promise<string> {
  let runId = '';
  await until(async () => {
    const [run] = await hosted.store.listRuns({ team: 't' });
    if (!run?.live) return false;
    runId = run.runId;
    return (await hosted.store.readEvents(run.runId)).some((event) => event.type === 'team:task-created');
  }, 'a live run with a task');
  return runId;
}

const roster = (info: TeamInfo | undefined) => info?.roster.map((entry) => entry.name);
const completed = (events: readonly TeamEvent[]) =>
  events.flatMap((event) => (event.type === 'team:task-completed' ? [event.data.task.id] : []));

export function otherHostCases(kind: string, makeStore: () => HostedStore): void {
  test(`${kind}: a run from another host is refused while the run is live; the live run completes untouched`, async () => {
    const hosted = makeStore();
    const gate = gateIn();
    const runner = here(hosted, gate);
    const runId = await liveRun(hosted);
    const before = await hosted.store.getTeam('t');
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await elsewhere(hosted);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        `The team t is running in process ${runner.child.pid} on ${hostname()} (run ${runId})`,
      );
      // Nothing changed: not the roster, not the run.
      expect(await hosted.store.getTeam('t')).toEqual(before);
    }
    writeFileSync(gate, '');
    const done = await runner.done;
    expect({ code: done.code, stderr: done.stderr }).toEqual({ code: 0, stderr: '' });
    const events = await hosted.store.readEvents(runId);
    expect(events.filter((event) => event.type === 'team:start')).toHaveLength(1);
    expect(completed(events).sort()).toEqual(['task-1', 'task-2', 'task-3', 'task-4']);
    expect(events.at(-1)).toMatchObject({ type: 'team:complete', data: { stopReason: 'completed' } });
    expect(roster(await hosted.store.getTeam('t'))).toEqual(['lead', 'a', 'b']);
    expect((await hosted.store.listRuns({ team: 't' })).map((run) => run.runId)).toEqual([runId]);
  }, 90_000);

  test(`${kind}: a runner killed with SIGKILL: another host is refused until its lease runs out, then its run is taken`, async () => {
    const hosted = makeStore();
    const runner = here(hosted, gateIn());
    const runId = await liveRun(hosted);
    runner.child.kill('SIGKILL');
    await runner.done;
    const renewed = await hosted.renewedAt(runId);
    const first = await elsewhere(hosted);
    if (first.code !== 0) {
      expect(first.stderr).toContain(`The team t is running in process ${runner.child.pid} on ${hostname()}`);
      expect(roster(await hosted.store.getTeam('t'))).toEqual(['lead', 'a', 'b']);
      // The lease runs out by itself (nothing renews it), as the store decides.
      await until(() => hosted.lapsed(runId), 'the lease to run out');
    }
    const taken = first.code === 0 ? first : await elsewhere(hosted);
    expect({ code: taken.code, stderr: taken.stderr }).toEqual({ code: 0, stderr: '' });
    const [run] = await hosted.store.listRuns({ team: 't' });
    expect(run?.runId).not.toBe(runId);
    // Taken only once the lease had run out: its new run began past the killed runner's lease.
    expect(Date.parse(run?.startedAt ?? '')).toBeGreaterThanOrEqual(renewed + hosted.leaseMs);
    expect(roster(await hosted.store.getTeam('t'))).toEqual(['lead', 'a', 'b', 'c']);
    expect(completed(await hosted.store.readEvents(run?.runId as string)).sort()).toEqual([
      'task-1',
      'task-2',
      'task-3',
      'task-4',
    ]);
  }, 90_000);

  test(`${kind}: a runner of this host's name on another machine is live while its lease holds, whatever its pid is here`, async () => {
    const hosted = makeStore();
    const { store } = hosted;
    await store.createTeam('t', { lead: 'lead', members: ['a'] });
    const { runId } = await store.startRun('t');
    await store.leaveRun('t', runId as string);
    const pid = deadPid();
    const me = thisProcess();
    // Another kernel (another boot) under the same host name: its pid means nothing here.
    const twin = { pid, host: me.host, machine: `${me.host} another-boot pid:[1]` };
    await hosted.setRunner(runId as string, twin, 0);
    await expect(store.startRun('t')).rejects.toMatchObject({ code: 'team-busy' });
    await expect(store.createTeam('t', { lead: 'lead', members: ['a', 'b'] })).rejects.toMatchObject({
      code: 'team-busy',
    });
    expect((await store.listRuns({ runId: runId as string }))[0]?.live).toBe(true);
    // Its lease ran out: not live.
    await hosted.setRunner(runId as string, twin, hosted.leaseMs + 1_000);
    expect((await store.listRuns({ runId: runId as string }))[0]?.live).toBe(false);
    // A process of this very machine that is gone is dead at once, whatever its lease.
    await hosted.setRunner(runId as string, { pid, host: me.host, machine: me.machine as string }, 0);
    expect((await store.listRuns({ runId: runId as string }))[0]?.live).toBe(false);
    expect((await store.resumeRun('t'))?.info.runId).toBe(runId);
    await store.leaveRun('t', runId as string);
  });
}
