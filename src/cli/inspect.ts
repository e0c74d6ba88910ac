import { USER } from '../agent/participants.js';
import type { TeamEvent } from '../events/team-event-map.js';
import { agentOf } from '../fold/agent-transcript.js';
import { applyEvent } from '../fold/apply-event.js';
import { turnCounts } from '../fold/run-result-of.js';
import { emptyRunState, type RunState } from '../fold/run-state.js';
import { summarizeRun } from '../fold/run-summary.js';
import { waitingOnText } from '../fold/waiting-fold.js';
import type { Roster } from '../roster/roster.js';
import { readUserInbox } from '../run/user-inbox.js';
import { runStatusOf } from '../store/run-record.js';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { followRun } from './follow-run.js';
import { knownTeam } from './known-team.js';
import { whereOf } from './store-choice.js';
import { eventLine, usageLine } from './view/event-line.js';
import { shorten, taskTally, unpricedLines } from './view/format.js';
import { TranscriptPrinter } from './view/transcript.js';

// The inspection commands read a store the way any process would: through the FileStore,
// never around it. `tasks` is in show-tasks.ts, which starts without the fold and the views.

const print = (line = '') => process.stdout.write(`${line}\n`);

export async function showTeams(store: TeamStore, json: boolean): Promise<void> {
  const rows = [];
  for (const info of await store.listTeams()) {
    const events = info.runId ? await store.readEvents(info.runId) : [];
    const listing = info.runId ? (await store.listRuns({ runId: info.runId }))[0] : undefined;
    const tasks = await store.transact(info.name, ({ board }) => board.counts());
    const status = info.runId ? runStatusOf(events, listing?.live ?? false) : 'never run';
    rows.push({ info, status, tasks, startedAt: events[0]?.timestamp, waiting: waitingOf(events, status) });
  }
  if (json) {
    for (const row of rows)
      print(JSON.stringify({ ...row.info, status: row.status, tasks: row.tasks, waiting: row.waiting }));
    return;
  }
  if (rows.length === 0) print(`no teams in ${whereOf(store)} yet`);
  for (const { info, status, tasks, startedAt, waiting } of rows) {
    print(`${info.name}: ${info.lead} leads ${membersLine(info.roster)}`);
    print(
      `  last run ${info.runId ?? '-'} · ${status} · ${tasks.completed}/${tasks.total - tasks.deleted} tasks done` +
        (startedAt ? ` · started ${startedAt}` : ''),
    );
    if (waiting.length > 0)
      print(`  waiting: ${waiting.map(({ member, on }) => `${member} ${on}`).join('; ')}`);
    if (status === 'interrupted')
      print(`  its process died: continue it with agent-teams resume <file> --team ${info.name}`);
  }
}

/** The team's members in roster order, each that left marked so: `a, b (shut down), c (removed)`. */
function membersLine(roster: Roster): string {
  const gone = { active: '', shutdown: ' (shut down)', removed: ' (removed)' } as const;
  return roster
    .filter((entry) => entry.role === 'member')
    .map((entry) => `${entry.name}${gone[entry.status]}`)
    .join(', ');
}

/** The members of a running run that wait, and on what (a request, or an answer to a question). */
function waitingOf(events: readonly TeamEvent[], status: string): { member: string; on: string }[] {
  if (status !== 'running') return [];
  const state = emptyRunState();
  for (const event of events) applyEvent(state, event);
  return [...state.agents.values()].flatMap((agent) =>
    agent.status === 'waiting' ? [{ member: agent.name, on: waitingOnText(agent) }] : [],
  );
}

/** `agent-teams runs <team>`: the team's runs, newest first, each in one line (or one JSON object). */
export async function showRuns(store: TeamStore, team: string, json: boolean): Promise<void> {
  await knownTeam(store, team);
  const summaries = [];
  for (const listing of await store.listRuns({ team })) {
    // A run whose log is gone or cut is listed, with nothing folded, rather than hiding the rest.
    const events = await store.readEvents(listing.runId).catch(() => []);
    summaries.push(summarizeRun(listing, events));
  }
  if (json) {
    for (const summary of summaries) print(JSON.stringify(summary));
    return;
  }
  if (summaries.length === 0) print(`${team} has no runs in ${whereOf(store)}`);
  for (const run of summaries) {
    const cost = run.costUsd === null ? undefined : run.costUsd;
    print(
      `${run.runId}  ${run.status.padEnd(11)} started ${run.startedAt} · ${duration(run.durationMs)} · ${usageLine(run.totalTokens, cost)}`,
    );
  }
  if (summaries.some((run) => run.status === 'interrupted'))
    print(`an interrupted run's process died: continue it with agent-teams resume <file> --team ${team}`);
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * Prints an inbox, read and unread. The person's own (`user`) is read by this: what it shows
 * unread is marked read, so agents' messages to the person never fill it while they look.
 */
export async function showInbox(store: TeamStore, team: string, agent: string, json: boolean): Promise<void> {
  await knownTeam(store, team);
  const messages =
    agent === USER
      ? await readUserInbox(store, team)
      : await store.transact(team, ({ mailbox }) => mailbox.messages(agent));
  if (json) {
    for (const message of messages) print(JSON.stringify(message));
    return;
  }
  if (messages.length === 0) print(`${agent}'s inbox in ${team} is empty`);
  for (const message of messages) {
    const mark = message.readAt === null ? 'unread' : 'read  ';
    const auto = message.automatic ? ' (automatic reply)' : '';
    print(`  [${mark}] ${message.sentAt} from ${message.from}${auto}: ${shorten(message.content, 140)}`);
  }
}

/**
 * Prints a run's events, then a summary from the runtime's own fold of them; with `follow`,
 * goes on printing new ones until the run completes. With `agent`, only that agent's
 * transcript, turn by turn (its events, with `json`).
 */
export async function showLogs(
  store: TeamStore,
  team: string,
  options: { run?: string; agent?: string; follow: boolean; json: boolean; signal: AbortSignal },
): Promise<void> {
  const { agent } = options;
  const info = options.run === undefined || agent !== undefined ? await knownTeam(store, team) : undefined;
  const runId = options.run ?? info?.runId;
  if (!runId) throw new CliError(`the team ${team} has not run yet`);
  if (info && agent !== undefined && !info.roster.some((entry) => entry.name === agent)) {
    const agents = info.roster.map((entry) => entry.name).join(', ');
    throw new CliError(`no agent "${agent}" in the team ${team}; its agents: ${agents}`);
  }
  const transcript = agent === undefined ? undefined : new TranscriptPrinter(agent);
  const run = emptyRunState();
  for await (const event of followRun(store, team, runId, options)) {
    applyEvent(run, event);
    if (transcript) {
      if (options.json) {
        if (agentOf(event) === agent) print(JSON.stringify(event));
      } else for (const line of transcript.lines(event, run)) print(line);
      continue;
    }
    const line = options.json ? JSON.stringify(event) : eventLine(event, Date.parse(run.startedAt ?? ''));
    if (line) print(line);
  }
  if (run.seq === 0 && !options.follow) throw new CliError(`no events logged for the run ${runId}`);
  if (!options.json && run.seq > 0) print(summaryLine(run));
}

/** A run in one line, from its fold: how it stands, its tasks, turns and tokens. */
function summaryLine(run: RunState): string {
  const { leadTurns, memberTurns } = turnCounts(run);
  return (
    `${run.stopReason ?? 'running'} · ${taskTally([...run.tasks.values()])} · ${leadTurns} lead and ${memberTurns} member turns` +
    ` · ${usageLine(run.usage.totalTokens, run.usage.cost)}` +
    unpricedLines([...run.agents.values()].map((agent) => [agent.name, agent.usage] as const))
      .map((line) => `\n${line}`)
      .join('')
  );
}
