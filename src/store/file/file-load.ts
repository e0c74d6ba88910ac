import * as path from 'node:path';
import { freezeTask, type TeamTask } from '../../board/task.js';
import { putTask, removeTask } from '../../board/task-list-state.js';
import type { TeamMessage } from '../../mailbox/message.js';
import { requestsFrom } from '../../requests/request-state.js';
import { infoOf } from '../team-info.js';
import { type TeamState, taskList, teamState, withInfo } from '../team-state.js';
import type { TeamInfo } from '../team-store.js';
import { corrupt, listFolder, readJson } from './file-io.js';
import type { FileKey, FileLayout } from './file-layout.js';
import { missingFile } from './file-records.js';
import {
  configSchema,
  highWatermarkSchema,
  inboxSchema,
  requestsSchema,
  taskSchema,
  type VersionStamp,
} from './file-schemas.js';

export function readConfig(layout: FileLayout, team: string): TeamInfo | undefined {
  const file = layout.config(team);
  const stored = readJson(file, configSchema);
  if (stored && stored.name !== team)
    throw corrupt(file, `it describes the team ${stored.name}, not ${team}`);
  return stored && infoOf(stored);
}

function readTask(file: string, id: string): TeamTask | undefined {
  const task = readJson(file, taskSchema);
  if (!task) return undefined;
  if (task.id !== id) throw corrupt(file, `it holds the task ${task.id} but is named for ${id}`);
  return freezeTask(task);
}

function readInbox(file: string): readonly TeamMessage[] | undefined {
  return readJson(file, inboxSchema)?.map((message) => Object.freeze(message as TeamMessage));
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
    const inbox = readInbox(path.join(inboxFolder, name));
    if (inbox) inboxes[name.slice(0, -'.json'.length)] = inbox;
  }
  const highWatermark = readJson(layout.highWatermark(team), highWatermarkSchema) ?? 0;
  const requests = requestsFrom(readJson(layout.requests(team), requestsSchema));
  return teamState(info, { tasks, highWatermark, inboxes, requests }, eventSeq);
}

/**
 * Brings a cached state up to date by re-reading the files of `keys` only. Answers
 * `undefined` when that is not enough (the team's config is gone, a key is unknown): the
 * caller loads the team whole. A file gone that the stamp records is `corrupt-file`.
 */
export function refreshTeam(
  layout: FileLayout,
  team: string,
  state: TeamState,
  keys: ReadonlySet<string>,
  stamp: VersionStamp,
): TeamState | undefined {
  // A key this version does not know (a newer writer, a hand edit): read the team whole.
  if ([...keys].some((key) => !/^(config|highWatermark|requests|task:.+|inbox:.+)$/.test(key)))
    return undefined;
  let next = state;
  if (keys.has('config')) {
    const info = readConfig(layout, team);
    if (!info) return undefined;
    next = withInfo(state, info);
  }
  const list = taskList(next);
  const recorded = (names: readonly string[] | undefined, name: string) => names?.includes(name) === true;
  for (const key of keys as ReadonlySet<FileKey>) {
    if (key === 'config') continue;
    const file = layout.fileOf(team, key);
    if (key === 'highWatermark') list.highWatermark = readJson(file, highWatermarkSchema) ?? 0;
    else if (key === 'requests') next.requests = requestsFrom(readJson(file, requestsSchema));
    else if (key.startsWith('task:')) {
      const id = key.slice('task:'.length);
      const task = readTask(file, id);
      if (task) putTask(list, task);
      else if (recorded(stamp.files?.tasks, id)) throw missingFile(file, layout.version(team));
      else removeTask(list, id);
    } else {
      const agent = key.slice('inbox:'.length);
      const inbox = readInbox(file);
      if (!inbox && recorded(stamp.files?.inboxes, agent)) throw missingFile(file, layout.version(team));
      next.bus.replaceInbox(agent, inbox ?? []);
    }
  }
  next.eventSeq = stamp.eventSeq;
  return next;
}
