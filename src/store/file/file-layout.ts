import * as path from 'node:path';
import type { StateKey } from '../../board/change-recorder.js';
import { checkName } from '../../errors/names.js';
import { checkRunId, isRunId } from '../team-info.js';
import { ConfinedFolders } from './file-confine.js';

/** A key the FileStore persists: the rules' keys plus the team's config. */
export type FileKey = StateKey | 'config';

/**
 * Where everything of a team lives under the store's root (Claude Code's shape):
 *
 *   teams/{team}/config.json          roster and options, the current run id
 *   teams/{team}/inboxes/{agent}.json one agent's messages, oldest first
 *   teams/{team}/requests.json        the run's requests (plans, permissions, tool calls) and path grants
 *   tasks/{team}/{id}.json            one task
 *   tasks/{team}/.highwatermark       highest N of any task-N id ever used
 *   tasks/{team}/.lock                the cross-process lock (through proper-lockfile): a hard
 *                                     link to its holder's key file, so it names its holder (an
 *                                     earlier version's empty file or folder there is waited
 *                                     for, or taken over, all the same; see lock-owner.ts)
 *   tasks/{team}/.lock-key-{pid}-{n}  a process's key file: its identity, linked as the lock
 *   tasks/{team}/.lock-owner          who holds an earlier version's lock
 *   tasks/{team}/.lock-queue/         one ticket per waiting process: the order they are woken in
 *   tasks/{team}/.version             the commit stamp: epoch, version, event count, and
 *                                     which task, inbox and log files must exist (file-records)
 *   tasks/{team}/.changes             the keys each commit changed, one line a commit
 *   tasks/{team}/.journal             a commit in flight, replayed if its writer died
 *   runs/{runId}/run.json             whose run it is (team, team id, start)
 *   runs/{runId}/events.jsonl         the run's event log, one event per line
 *
 * Every name is checked before it becomes part of a path, and every folder the store writes
 * in is confirmed to be a real folder inside the root (`confine`, see file-confine.ts).
 */
interface TeamPaths {
  readonly teamFolder: string;
  readonly config: string;
  readonly requests: string;
  readonly inboxFolder: string;
  readonly taskFolder: string;
  readonly highWatermark: string;
  readonly lock: string;
  readonly version: string;
  readonly changes: string;
  readonly journal: string;
}

interface RunPaths {
  readonly folder: string;
  readonly record: string;
  readonly events: string;
}

const MEMO_LIMIT = 1000;

export class FileLayout {
  readonly root: string;
  readonly #folders: ConfinedFolders;
  readonly #teams = new Map<string, TeamPaths>();
  readonly #runs = new Map<string, RunPaths>();

  constructor(root: string) {
    this.root = path.resolve(root);
    this.#folders = new ConfinedFolders(this.root);
  }

  /** Throws `corrupt-file` if a link (or a file) stands on the way to `folder`; checked once per folder. */
  confine(folder: string): void {
    this.#folders.confirm(folder);
  }

  /**
   * The team's folders the store writes in: its task folder, its inboxes and config's. The lock
   * itself is no folder to confirm: it is made by `link` or with O_EXCL (never through a link)
   * and removed by unlink (a link, not what it points to). The lock queue's folder, there only
   * while processes wait, is confirmed when a waiter joins it (`confineQueue`).
   */
  confineTeam(team: string): void {
    this.confine(this.taskFolder(team));
    this.confine(this.inboxFolder(team));
  }

  confineQueue(team: string): void {
    this.confine(`${this.lock(team)}-queue`);
  }

  teamsFolder(): string {
    return path.join(this.root, 'teams');
  }

  /** A team's paths, made once: every commit asks for several of them. */
  #paths(team: string): TeamPaths {
    let paths = this.#teams.get(team);
    if (!paths) {
      const teamFolder = path.join(this.root, 'teams', checkName('team', team));
      const taskFolder = path.join(this.root, 'tasks', team);
      paths = {
        teamFolder,
        config: path.join(teamFolder, 'config.json'),
        requests: path.join(teamFolder, 'requests.json'),
        inboxFolder: path.join(teamFolder, 'inboxes'),
        taskFolder,
        highWatermark: path.join(taskFolder, '.highwatermark'),
        lock: path.join(taskFolder, '.lock'),
        version: path.join(taskFolder, '.version'),
        changes: path.join(taskFolder, '.changes'),
        journal: path.join(taskFolder, '.journal'),
      };
      // Bounded: a process asking after countless names (a server, say) keeps none of them long.
      if (this.#teams.size >= MEMO_LIMIT) this.#teams.clear();
      this.#teams.set(team, paths);
    }
    return paths;
  }

  teamFolder(team: string): string {
    return this.#paths(team).teamFolder;
  }

  config(team: string): string {
    return this.#paths(team).config;
  }

  requests(team: string): string {
    return this.#paths(team).requests;
  }

  inboxFolder(team: string): string {
    return this.#paths(team).inboxFolder;
  }

  inbox(team: string, agent: string): string {
    return path.join(this.inboxFolder(team), `${checkName('agent', agent)}.json`);
  }

  taskFolder(team: string): string {
    return this.#paths(team).taskFolder;
  }

  task(team: string, id: string): string {
    return path.join(this.taskFolder(team), `${checkName('task id', id)}.json`);
  }

  highWatermark(team: string): string {
    return this.#paths(team).highWatermark;
  }

  lock(team: string): string {
    return this.#paths(team).lock;
  }

  version(team: string): string {
    return this.#paths(team).version;
  }

  changes(team: string): string {
    return this.#paths(team).changes;
  }

  journal(team: string): string {
    return this.#paths(team).journal;
  }

  runsFolder(): string {
    return path.join(this.root, 'runs');
  }

  #run(runId: string): RunPaths {
    let paths = this.#runs.get(runId);
    if (!paths) {
      const folder = path.join(this.root, 'runs', checkRunId(runId));
      paths = { folder, record: path.join(folder, 'run.json'), events: path.join(folder, 'events.jsonl') };
      if (this.#runs.size >= MEMO_LIMIT) this.#runs.clear();
      this.#runs.set(runId, paths);
    }
    return paths;
  }

  runFolder(runId: string): string {
    return this.#run(runId).folder;
  }

  runRecord(runId: string): string {
    return this.#run(runId).record;
  }

  events(runId: string): string {
    return this.#run(runId).events;
  }

  /** The file that holds a key. */
  fileOf(team: string, key: FileKey): string {
    if (key === 'config') return this.config(team);
    if (key === 'highWatermark') return this.highWatermark(team);
    if (key === 'requests') return this.requests(team);
    if (key.startsWith('task:')) return this.task(team, key.slice('task:'.length));
    return this.inbox(team, key.slice('inbox:'.length));
  }

  /** A path as the journal records it: relative to the root, so a moved store still recovers. */
  relative(file: string): string {
    return path.relative(this.root, file);
  }

  /**
   * The file a team's journal names, as an absolute path, confined: only a file of the team's
   * own (`state`: its config, requests, inboxes, tasks and high watermark) or its run's log
   * (`log`), through real folders. `undefined` for any other path: a journal the store did
   * not write (see file-confine.ts).
   */
  journaled(team: string, relative: string, kind: 'state' | 'log'): string | undefined {
    const file = path.resolve(this.root, relative);
    const folder = path.dirname(file);
    const allowed =
      kind === 'log'
        ? path.basename(file) === 'events.jsonl' &&
          path.dirname(folder) === this.runsFolder() &&
          isRunId(path.basename(folder))
        : [this.teamFolder(team), this.inboxFolder(team), this.taskFolder(team)].includes(folder) &&
          path.basename(file).length > 0;
    if (!allowed) return undefined;
    this.confine(folder);
    return file;
  }
}
