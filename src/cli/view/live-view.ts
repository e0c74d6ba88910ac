import type { TeamTask } from '../../board/task.js';
import type { TeamEventMap } from '../../events/team-event-map.js';
import type { AgentRunState, RunState } from '../../fold/run-state.js';
import { heldTask, waitingOnText } from '../../fold/waiting-fold.js';
import { clip, pad } from './columns.js';
import { count, money, seconds, unpricedLines } from './format.js';

const style = {
  bold: (text: string) => `\x1b[1m${text}\x1b[22m`,
  dim: (text: string) => `\x1b[2m${text}\x1b[22m`,
  green: (text: string) => `\x1b[32m${text}\x1b[39m`,
  yellow: (text: string) => `\x1b[33m${text}\x1b[39m`,
  red: (text: string) => `\x1b[31m${text}\x1b[39m`,
};

function status(agent: AgentRunState): string {
  const word = agent.status.padEnd(7);
  if (agent.status === 'working') return style.green(word);
  if (agent.status === 'failed') return style.red(word);
  if (agent.status === 'stopped') return style.yellow(word);
  return style.dim(word);
}

function doing(agent: AgentRunState, tasks: ReadonlyMap<string, TeamTask>): string {
  if (agent.status === 'waiting') {
    const held = heldTask(tasks, agent.name);
    return `${waitingOnText(agent)}${held ? ` · ${held.id} ${held.title}` : ''}`;
  }
  if (agent.taskId) return `${agent.taskId} ${tasks.get(agent.taskId)?.title ?? ''}`;
  if (agent.status === 'working') return agent.reason === 'start' ? 'planning' : (agent.reason ?? '');
  return '';
}

function column(tasks: TeamTask[], width: number, rows: number): string[] {
  const lines = tasks.map((task) => {
    const who = task.owner ?? task.assignee;
    return clip(`${task.id} ${task.title}${who ? ` · ${who}` : ''}${task.closed ? ' (closed)' : ''}`, width);
  });
  if (lines.length > rows) return [...lines.slice(0, rows - 1), `… ${lines.length - rows + 1} more`];
  return lines;
}

/** What the run waits for while its store is out of reach, and for how long it will. */
function outageLine(outage: StoreOutageShown, now: number): string {
  const waited = seconds(now - Date.parse(outage.began));
  return `the store cannot be reached (${waited}; the run waits up to ${seconds(outage.waitMs)}): ${outage.error}`;
}

/** Messages the view shows: the latest. */
const SHOWN_MESSAGES = 6;

/** A store outage the run waits through, as its live `team:store-outage` tells it. */
export type StoreOutageShown = TeamEventMap['team:store-outage'];

/**
 * The live view of a run's state (the runtime's own fold) as lines for a terminal `width`
 * wide, at time `now`; under each working agent, the latest line it wrote (`latest`); under
 * the header, the store outage the run waits through (`outage`), if one.
 */
export function renderLive(
  view: RunState,
  now: number,
  width: number,
  latest: (agent: string) => string | undefined = () => undefined,
  outage?: StoreOutageShown,
): string[] {
  const elapsed = seconds(now - (view.startedAt ? Date.parse(view.startedAt) : now));
  const { totalTokens, cost } = view.usage;
  const header =
    `${style.bold('agent-teams')} · ${view.team} · ${elapsed} · ${count(totalTokens)} tokens · ${money(cost)}` +
    (view.stopReason ? ` · ${style.bold(view.stopReason)}` : '');
  const lines = [clip(header, width)];
  if (outage) lines.push(` ${style.red(clip(outageLine(outage, now), width - 2))}`);
  lines.push('');
  const nameWidth = Math.max(6, ...[...view.agents.keys()].map((name) => name.length)) + 2;
  const taskWidth = Math.max(10, width - nameWidth - 50);
  for (const agent of view.agents.values()) {
    const turns = `${agent.turns} turn${agent.turns === 1 ? '' : 's'}`;
    lines.push(
      ` ${pad(agent.name, nameWidth)}${pad(agent.role, 8)}${status(agent)} ${pad(doing(agent, view.tasks), taskWidth)} ` +
        `${turns.padStart(8)} ${count(agent.usage.totalTokens).padStart(8)} tok ${money(agent.usage.cost).padStart(9)}`,
    );
    const line = agent.status === 'working' ? latest(agent.name) : undefined;
    if (line) lines.push(style.dim(` ${' '.repeat(nameWidth)}│ ${clip(line, width - nameWidth - 4)}`));
  }
  const byAgent = [...view.agents.values()].map((agent) => [agent.name, agent.usage] as const);
  for (const line of unpricedLines(byAgent)) lines.push(style.dim(` ${clip(line, width - 2)}`));
  const tasks = [...view.tasks.values()];
  const groups = [
    ['pending', tasks.filter((task) => task.status === 'pending')],
    ['in progress', tasks.filter((task) => task.status === 'in_progress')],
    ['completed', tasks.filter((task) => task.status === 'completed')],
  ] as const;
  const third = Math.max(12, Math.floor((width - 2) / 3) - 1);
  lines.push('', ` ${groups.map(([name, list]) => pad(`${name} (${list.length})`, third)).join(' ')}`);
  const columns = groups.map(([, list]) => column(list, third, 8));
  const depth = Math.max(0, ...columns.map((lines) => lines.length));
  for (let row = 0; row < depth; row++) {
    lines.push(` ${columns.map((lines) => pad(lines[row] ?? '', third)).join(' ')}`);
  }
  // Off the plan, but kept in view: one line under the columns.
  const deleted = tasks.filter((task) => task.status === 'deleted');
  if (deleted.length > 0) {
    const named = deleted.map((task) => `${task.id} ${task.title}`).join(', ');
    lines.push(style.dim(` ${clip(`deleted (${deleted.length}): ${named}`, width - 2)}`));
  }
  if (view.messages.length > 0) {
    lines.push('', ` ${style.bold('messages')}`);
    for (const message of view.messages.slice(-SHOWN_MESSAGES)) {
      const mark = message.automatic ? style.dim(' (auto)') : '';
      lines.push(
        ` ${clip(`${message.from} → ${message.to.join(', ')}: ${message.content}`, width - 10)}${mark}`,
      );
    }
  }
  const open = [...view.governance.requests.values()].filter((request) => request.status === 'open');
  if (open.length > 0) {
    lines.push(
      '',
      ` ${style.bold('requests')} ${style.dim('(agent-teams respond <team> <id> --approve|--reject)')}`,
    );
    for (const request of open) {
      lines.push(
        ` ${clip(`${request.id} ${request.kind} from ${request.from} → ${request.to}: ${request.subject}`, width - 2)}`,
      );
    }
  }
  return lines;
}
