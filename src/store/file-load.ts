import * as path from 'node:path';
import { freezeTask, type TeamTask } from '../board/task.js';
import { putTask, removeTask } from '../board/task-list-state.js';
import type { TeamMessage } from '../mailbox/message.js';
import { corrupt, listFolder, readJson } from './file-io.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { configSchema, highWatermarkSchema, inboxSchema, taskSchema } from './file-schemas.js';
import { type TeamState, taskList, teamState, withInfo } from './team-state.js';
import type { TeamInfo } from './team-store.js';

export function readConfig(layout: FileLayout, team: string): TeamInfo | undefined {
  const file = layout.config(team);
  const info = readJson(file, configSchema);
  if (info && info.name !== team) throw corrupt(file, `it describes the team ${info.name}, not ${team}`);
  return info;
}

function readTask(file: string, id: string): TeamTask | undefined {
  const task = readJson(file, taskSchema);
  if (!task) return undefined;
  if (task.id !== id) throw corrupt(file, `it holds the task ${task.id} but is named for ${id}`);
  return freezeTask(task);
}

function readInbox(file: string): readonly TeamMessage[] {
  return (readJson(file, inboxSchema) ?? []).map((message) => Object.freeze(message as TeamMessage));
}

/** Reads every file of a team into a fresh state. */
export function loadTeam(layout: FileLayout, team: string, info: TeamInfo, eventSeq: number): TeamState {
  const tasks: TeamTask[] = [];
  const folder = layout.taskFolder(team);
  for (const name of listFolder(folder, '.json')) {
    const id = name.slice(0, -'.json'.length);
    const task = readTask(path.join(folder, name), id);
    if (task) tasks.push(task);
  }
  const inboxes: Record<string, readonly TeamMessage[]> = {};
  const inboxFolder = layout.inboxFolder(team);
  for (const name of listFolder(inboxFolder, '.json')) {
    inboxes[name.slice(0, -'.json'.length)] = readInbox(path.join(inboxFolder, name));
  }
  const highWatermark = readJson(layout.highWatermark(team), highWatermarkSchema) ?? 0;
  return teamState(info, { tasks, highWatermark, inboxes }, eventSeq);
}

/**
 * Brings a cached state up to date by re-reading the files of `keys` only. Answers
 * `undefined` when that is not enough (the team's config is gone, a key is unknown): the
 * caller loads the team whole.
 */
export function refreshTeam(
  layout: FileLayout,
  team: string,
  state: TeamState,
  keys: ReadonlySet<string>,
  eventSeq: number,
): TeamState | undefined {
  // A key this version does not know (a newer writer, a hand edit): read the team whole.
  if ([...keys].some((key) => !/^(config|highWatermark|task:.+|inbox:.+)$/.test(key))) return undefined;
  let next = state;
  if (keys.has('config')) {
    const info = readConfig(layout, team);
    if (!info) return undefined;
    next = withInfo(state, info);
  }
  const list = taskList(next);
  for (const key of keys as ReadonlySet<FileKey>) {
    if (key === 'config') continue;
    const file = layout.fileOf(team, key);
    if (key === 'highWatermark') list.highWatermark = readJson(file, highWatermarkSchema) ?? 0;
    else if (key.startsWith('task:')) {
      const id = key.slice('task:'.length);
      const task = readTask(file, id);
      if (task) putTask(list, task);
      else removeTask(list, id);
    } else next.bus.replaceInbox(key.slice('inbox:'.length), readInbox(file));
  }
  next.eventSeq = eventSeq;
  return next;
}
