import * as fs from 'node:fs';
import type { TeamEvent } from '../../events/team-event-map.js';
import { tryReadText } from './file-io.js';
import type { FileLayout } from './file-layout.js';
import { readConfig } from './file-load.js';
import type { LogReader } from './file-log-reader.js';
import { versionSchema } from './file-schemas.js';

// `fs.watch` is not reliable everywhere (network and container file systems miss events),
// so the stamp is also looked at on a timer: one small read per team with subscribers.
const POLL_MS = 200;
// Runs whose published seq is kept: the current one, and the few before it whose own
// commits may still be on their way to the subscribers.
const RUNS_KEPT = 4;

/**
 * What a FileStore has published to the subscribers of one team, for as long as the team
 * has any: per run, the seq of the last event published. Commits of this process and of
 * other processes both go through it, so every event reaches the subscribers once, in seq
 * order. Other processes' commits are noticed by the team's commit stamp changing (watched
 * with `fs.watch` on its folder, and polled): the current run's log is then read after the
 * last event published. Neither the watcher nor the timer keeps the process alive.
 */
export class TeamFeed {
  readonly #layout: FileLayout;
  readonly #team: string;
  readonly #log: LogReader;
  readonly #publish: (events: readonly TeamEvent[]) => void;
  readonly #published = new Map<string, number>();
  readonly #timer: NodeJS.Timeout;
  #watcher: fs.FSWatcher | undefined;
  #ready = false;
  /** The stamp as last seen, to tell a new commit by. */
  #stamp = '';
  /** The stamp counts events the log did not show yet: look again at the next tick. */
  #behind = false;
  #pending = false;
  #stopped = false;

  constructor(
    layout: FileLayout,
    team: string,
    log: LogReader,
    publish: (events: readonly TeamEvent[]) => void,
  ) {
    this.#layout = layout;
    this.#team = team;
    this.#log = log;
    this.#publish = publish;
    this.#start();
    this.#watch();
    this.#timer = setInterval(() => this.#check(), POLL_MS);
    this.#timer.unref();
  }

  /**
   * Publishes the events of a commit of this process, unless the watch published them first.
   * `stamp` is the stamp's text the commit left: the watch, woken by this very commit, then
   * finds nothing new and reads nothing.
   */
  own(runId: string | null, events: readonly TeamEvent[], stamp?: string): void {
    if (stamp !== undefined && this.#ready && !this.#behind) this.#stamp = stamp;
    const last = events.at(-1)?.seq;
    // Without a run nothing is logged, and other processes' events cannot be read: pass them on.
    if (last === undefined || runId === null) {
      this.#publish(events);
      return;
    }
    const seq = this.#published.get(runId) ?? 0;
    if (last <= seq) return;
    if (events[0]?.seq !== seq + 1) {
      // Another process's events came between (or the watch published part): the log has
      // them all, in order.
      try {
        this.#catchUp(runId);
        return;
      } catch {
        // The log cannot be read now: this commit's events are known, publish those.
      }
    }
    this.#advance(runId, last);
    this.#publish(events.filter((event) => event.seq > seq));
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  /** Where the subscribers stand when they subscribe: after everything logged so far. */
  #start(): void {
    try {
      this.#stamp = this.#readStamp();
      const runId = readConfig(this.#layout, this.#team)?.runId;
      if (runId) this.#advance(runId, this.#log.read(this.#layout.events(runId)).at(-1)?.seq ?? 0);
      this.#ready = true;
    } catch {
      // A file caught mid-write by hand: start at the next tick.
    }
  }

  #watch(): void {
    try {
      this.#watcher = fs.watch(this.#layout.taskFolder(this.#team), { persistent: false }, (_, file) => {
        if (file === null || file === '.version') this.#soon();
      });
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch {
      // No folder yet, or no watching here: the timer looks, and tries to watch again.
    }
  }

  #soon(): void {
    if (this.#pending) return;
    this.#pending = true;
    setImmediate(() => {
      this.#pending = false;
      this.#check();
    });
  }

  #check(): void {
    if (this.#stopped) return;
    if (!this.#watcher) this.#watch();
    if (!this.#ready) {
      this.#start();
      return;
    }
    const stamp = this.#readStamp();
    if (stamp === this.#stamp && !this.#behind) return;
    this.#stamp = stamp;
    try {
      const runId = readConfig(this.#layout, this.#team)?.runId;
      if (!runId) {
        this.#behind = false;
        return;
      }
      const seq = this.#catchUp(runId);
      // A writer of the previous version wrote the stamp of a commit of events alone before
      // its log line: until the log shows every event the stamp counts, look again.
      this.#behind = versionSchema.parse(JSON.parse(stamp)).eventSeq > seq;
    } catch {
      this.#behind = true; // a file caught mid-write: look again at the next tick
    }
  }

  /** Publishes the run's logged events after the last one published; answers where it stands. */
  #catchUp(runId: string): number {
    const events = this.#log.read(this.#layout.events(runId), this.#published.get(runId) ?? 0);
    const last = events.at(-1)?.seq;
    if (last !== undefined) {
      this.#advance(runId, last);
      this.#publish(events);
    }
    return this.#published.get(runId) ?? 0;
  }

  #advance(runId: string, seq: number): void {
    this.#published.delete(runId);
    this.#published.set(runId, seq);
    if (this.#published.size > RUNS_KEPT)
      this.#published.delete(this.#published.keys().next().value as string);
  }

  #readStamp(): string {
    // Padding cut: the stamp is rewritten in place, padded over a longer old one.
    return tryReadText(this.#layout.version(this.#team))?.trimEnd() ?? '';
  }
}
