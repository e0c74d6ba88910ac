import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, foldEvents, type TeamEvent } from 'agent-teams';
import { expect, test } from 'vitest';
import { startStudio } from '../../src/studio/server/serve.js';
import { studioStoreOf } from '../../src/studio/server/studio-store.js';
import { cli } from '../helpers/cli.js';
import { tempFolder } from '../helpers/temp-folder.js';
import { readStream } from '../studio/helpers/sse.js';

const fixture = fileURLToPath(new URL('./fixtures/newsdesk.ts', import.meta.url));

test('a team that forms itself, run by the command: the roster, the usage, `teams`, the Studio’s graph and the log agree', async () => {
  const cwd = tempFolder();
  const run = await cli(['run', fixture, '--input', 'Write a short article about tides'], { cwd });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  // The command says who joined and who left.
  expect(run.stdout).toMatch(/scout joined the team \(scripted\/scripted, spawned by editor as researcher\)/);
  expect(run.stdout).toMatch(/scribe joined the team \(scripted\/scripted, spawned by editor as writer\)/);
  expect(run.stdout).toMatch(/scout is asked to shut down by editor/);
  expect(run.stdout).toMatch(/scout shut down/);
  const summary = run.stdout.match(/completed · 3\/3 tasks · ([\d,]+) tokens, .* · run (\S+)/);
  expect(summary).not.toBeNull();
  const [, printedTokens, runId] = summary as unknown as [string, string, string];

  // The log, as the store has it.
  const root = path.join(cwd, '.agent-teams');
  const log = await new FileStore({ root }).readEvents(runId);
  const joined = log.filter((event) => event.type === 'team:member-joined').map((event) => event.data);
  expect(joined).toMatchObject([
    { member: 'scout', definition: 'researcher', by: 'editor' },
    { member: 'scribe', definition: 'writer', by: 'editor' },
  ]);
  expect(
    log.filter((event) => event.type === 'team:member-shutdown').map((event) => event.data),
  ).toMatchObject([{ member: 'scout', removed: false }]);
  const folded = foldEvents(log);
  const statuses = Object.fromEntries([...folded.agents.values()].map((agent) => [agent.name, agent.status]));
  expect(statuses).toEqual({
    editor: 'idle',
    checker: 'idle',
    copyeditor: 'idle',
    scout: 'shutdown',
    scribe: 'idle',
  });
  const tokens = log.reduce(
    (sum, event) => sum + (event.type === 'team:turn-usage' ? event.data.usage.totalTokens : 0),
    0,
  );
  expect(folded.usage.totalTokens).toBe(tokens);
  expect(printedTokens.replaceAll(',', '')).toBe(String(tokens));
  expect(folded.agents.get('scout')?.usage.totalTokens).toBeGreaterThan(0);

  // The roster (the FileStore's config.json), and `teams`, in text and JSON.
  const config = JSON.parse(readFileSync(path.join(root, 'teams/newsdesk/config.json'), 'utf8'));
  const roster = config.roster.map(
    (entry: { name: string; status: string }) => `${entry.name}:${entry.status}`,
  );
  expect(roster).toEqual([
    'editor:active',
    'checker:active',
    'copyeditor:active',
    'scout:shutdown',
    'scribe:active',
  ]);
  expect(config.maxMembers).toBe(4);
  const teams = await cli(['teams'], { cwd });
  expect(teams.stdout).toContain('newsdesk: editor leads checker, copyeditor, scout (shut down), scribe');
  const listed = JSON.parse((await cli(['teams', '--json'], { cwd })).stdout);
  expect(listed.roster).toEqual(config.roster);
  const runs = JSON.parse((await cli(['runs', 'newsdesk', '--json'], { cwd })).stdout);
  expect(runs).toMatchObject({ runId, status: 'completed', totalTokens: tokens });

  // The Studio's graph: the fold of the events its API streams, and its run list.
  const server = await startStudio({ teams: {}, studio: studioStoreOf(new FileStore({ root })) });
  try {
    const headers = { authorization: `Bearer ${server.token}` };
    const url = new URL(`/api/runs/${runId}/events`, server.url).href.replace(/\?.*$/, '');
    const { events } = await readStream(url, { headers, until: (event) => event.type === 'team:complete' });
    const graph = foldEvents(events as TeamEvent[]);
    expect(Object.fromEntries([...graph.agents.values()].map((agent) => [agent.name, agent.status]))).toEqual(
      statuses,
    );
    for (const agent of graph.agents.values())
      expect(agent.usage).toEqual(folded.agents.get(agent.name)?.usage);
    const listedRuns = await (
      await fetch(new URL('/api/runs', server.url).href.replace(/\?.*$/, ''), { headers })
    ).json();
    expect(listedRuns).toMatchObject([{ runId, totalTokens: tokens }]);
  } finally {
    await server.close();
  }
});
