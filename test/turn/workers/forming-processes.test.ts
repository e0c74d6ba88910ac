import { fileURLToPath } from 'node:url';
import { foldEvents, type TeamEvent } from 'agent-teams';
import { type FakeOpenAIServer, fakeOpenAIServer } from 'agent-teams/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { startCli } from '../../helpers/cli.js';
import { tempFolder } from '../../helpers/temp-folder.js';
import { POSTGRES_URL, postgresReachable, postgresStores } from '../../store/postgres/database.js';

// A team that forms itself, its turns on real `agent-teams worker` processes over PostgreSQL:
// the lead's spawns and retire are made on workers, and the spawned members' turns run on
// workers from the team file and the join the log records.
const reachable = await postgresReachable();
const stores = postgresStores();
const teamFile = fileURLToPath(new URL('./fixtures/forming-teams.ts', import.meta.url));
const children: ReturnType<typeof startCli>[] = [];
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
  await server?.close();
  server = undefined;
});

function start(args: string[], schema: string, env: Record<string, string> = {}) {
  const started = startCli([...args, '--postgres', POSTGRES_URL, '--schema', schema], {
    cwd: tempFolder(),
    env,
  });
  children.push(started);
  return started;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 60_000) {
      const outputs = children.map((c) => `${c.output()}${c.errors()}`);
      throw new Error(`gave up waiting for ${what}; the processes said:\n${outputs.join('\n---\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function logOf(schema: string, team: string): Promise<TeamEvent[]> {
  const store = stores.reader(schema);
  const runId = (await store.getTeam(team))?.runId;
  return runId ? store.readEvents(runId) : [];
}

/** The lines a worker printed for the turns it ran, of one agent. */
const turnsOn = (worker: ReturnType<typeof startCli>, agent: string) =>
  worker
    .output()
    .split('\n')
    .filter((line) => line.includes(`: ${agent} turn `) && / done$/.test(line));

describe.skipIf(!reachable)('a team that forms itself, on worker processes', () => {
  test('the lead spawns two members from its catalog, gives them tasks and retires one; the third is over maxMembers; the roster, usage, `teams` and the log agree', async () => {
    const schema = stores.make().schema;
    const workers = [
      start(['worker', teamFile, '--team', 'newsdesk'], schema),
      start(['worker', teamFile, '--team', 'newsdesk'], schema),
    ];
    await until(
      () => workers.every((w) => w.output().includes('takes the turns of newsdesk')),
      'the workers',
    );
    const run = await start(
      ['run', teamFile, '--team', 'newsdesk', '--input', 'Write about tides', '--json'],
      schema,
    ).done;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });

    const log = await logOf(schema, 'newsdesk');
    expect(log.at(-1)).toMatchObject({ type: 'team:complete', data: { stopReason: 'completed' } });
    expect(
      log.filter((event) => event.type === 'team:member-joined').map((event) => event.data),
    ).toMatchObject([
      { member: 'scout', definition: 'researcher', by: 'editor', instructions: 'You find facts.' },
      { member: 'scribe', definition: 'writer', by: 'editor' },
    ]);
    const spawns = log.flatMap((event) =>
      event.type === 'team:tool-result' && event.data.toolName === 'spawn_member'
        ? [JSON.stringify(event.data.output)]
        : [],
    );
    expect(spawns[2]).toContain('(maxMembers 4): retire one before critic can join');
    // team_status answered on a worker, from the run's log.
    const status = log.flatMap((event) =>
      event.type === 'team:tool-result' && event.data.toolName === 'team_status' ? [event.data.output] : [],
    )[0];
    expect(String(status)).toMatch(/"success":true.*"name":"scout".*"definition":"researcher"/);
    const tasks = log.flatMap((event) =>
      event.type === 'team:task-completed' ? [`${event.data.task.id}:${event.data.task.owner}`] : [],
    );
    expect(tasks).toEqual(['task-1:scout', 'task-2:scribe', 'task-3:checker']);
    expect(
      log.filter((event) => event.type === 'team:shutdown-requested').map((event) => event.data),
    ).toMatchObject([{ member: 'scout', force: false, by: 'editor' }]);
    // Every turn ran on a worker, the spawned members' too.
    const started = log.filter((event) => event.type === 'team:member-started').length;
    const ran = workers.flatMap((w) =>
      w
        .output()
        .split('\n')
        .filter((line) => / done$/.test(line)),
    );
    expect(ran).toHaveLength(started);
    expect(workers.flatMap((w) => turnsOn(w, 'scout')).length).toBeGreaterThan(0);
    expect(workers.flatMap((w) => turnsOn(w, 'scribe')).length).toBeGreaterThan(0);

    // The fold of the log, the store's roster, `teams` and `runs` agree.
    const folded = foldEvents(log);
    const statuses = Object.fromEntries(
      [...folded.agents.values()].map((agent) => [agent.name, agent.status]),
    );
    expect(statuses).toEqual({
      editor: 'idle',
      checker: 'idle',
      copyeditor: 'idle',
      scout: 'shutdown',
      scribe: 'idle',
    });
    const teams = start(['teams', '--json'], schema);
    const listed = JSON.parse((await teams.done).stdout);
    expect(
      listed.roster.map((entry: { name: string; status: string }) => `${entry.name}:${entry.status}`),
    ).toEqual(['editor:active', 'checker:active', 'copyeditor:active', 'scout:shutdown', 'scribe:active']);
    expect(listed.maxMembers).toBe(4);
    const tokens = log.reduce(
      (sum, event) => sum + (event.type === 'team:turn-usage' ? event.data.usage.totalTokens : 0),
      0,
    );
    expect(folded.usage.totalTokens).toBe(tokens);
    expect(folded.agents.get('scribe')?.usage.totalTokens).toBeGreaterThan(0);
    const runs = JSON.parse((await start(['runs', 'newsdesk', '--json'], schema).done).stdout);
    expect(runs).toMatchObject({ status: 'completed', totalTokens: tokens });
  }, 120_000);

  test('a member of free instructions on a provider/model string runs on a worker, which resolves the model itself', async () => {
    server = await fakeOpenAIServer((call) =>
      call.agent === 'fixer' ? 'Fixed: the seal was replaced.' : 'ok',
    );
    const schema = stores.make().schema;
    const env = { OPENAI_COMPATIBLE_BASE_URL: server.url };
    const worker = start(['worker', teamFile, '--team', 'freelance'], schema, env);
    await until(() => worker.output().includes('takes the turns of freelance'), 'the worker');
    const run = await start(
      ['run', teamFile, '--team', 'freelance', '--input', 'Fix the leak', '--json'],
      schema,
    ).done;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const log = await logOf(schema, 'freelance');
    expect(log.filter((event) => event.type === 'team:member-joined').map((event) => event.data)).toEqual([
      {
        member: 'fixer',
        description: 'You fix what your task names.',
        model: 'openai-compatible/fixer',
        mode: 'default',
        instructions: 'You fix what your task names.',
        by: 'lead',
      },
    ]);
    const done = log.find((event) => event.type === 'team:task-completed');
    expect(done?.data.task).toMatchObject({ owner: 'fixer', result: 'Fixed: the seal was replaced.' });
    expect(server.calls.map((call) => call.agent)).toEqual(['fixer']);
    expect(turnsOn(worker, 'fixer')).toHaveLength(1);
  }, 120_000);
});
