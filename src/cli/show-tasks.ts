import type { TeamTask } from '../board/task.js';
import type { TeamStore } from '../store/team-store.js';
import { knownTeam } from './known-team.js';
import { shorten } from './view/format.js';

// `agent-teams tasks`, in a module of its own: the command reads the boards and nothing
// else, so it starts without the run fold and the log views the other inspections load.

const print = (line = '') => process.stdout.write(`${line}\n`);

function taskLine(task: TeamTask): string {
  const status = task.closed ? 'closed' : task.status;
  const who = task.owner ?? task.assignee ?? '-';
  const waits = task.dependsOn.length ? ` (after ${task.dependsOn.join(', ')})` : '';
  const shown = task.status === 'deleted' ? `deleted: ${task.note ?? ''}` : task.result;
  const result = shown ? `\n      → ${shorten(shown, 110)}` : '';
  return `  ${task.id.padEnd(10)} ${status.padEnd(11)} ${who.padEnd(12)} ${task.title}${waits}${result}`;
}

/** Prints the task list of `team` (or of every team in the store), or one JSON object a task. */
export async function showTasks(store: TeamStore, team: string | undefined, json: boolean): Promise<void> {
  const names = team
    ? [(await knownTeam(store, team)).name]
    : (await store.listTeams()).map((info) => info.name);
  for (const name of names) {
    const tasks = await store.transact(name, ({ board }) => board.listTasks());
    if (json) {
      for (const task of tasks) print(JSON.stringify({ team: name, ...task }));
      continue;
    }
    print(`${name} (${tasks.length} task${tasks.length === 1 ? '' : 's'})`);
    for (const task of tasks) print(taskLine(task));
  }
}
