import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { checkName } from '../../errors/names.js';
import { fn, parseOptions } from '../../errors/options-schema.js';
import type { TeamEvent } from '../../events/team-event-map.js';
import { LiveRuns } from '../live-runs.js';
import { canResume, type RunListing, type RunRecord } from '../run-record.js';
import { storeClosed } from '../store-closed.js';
import { checkStartOptions } from '../store-options.js';
import { Subscribers } from '../subscribers.js';
import { checkAfterSeq, checkRunId, describeTeam, newRunId, requireTeam, sameSetup } from '../team-info.js';
import { type TeamState, teamState, withInfo } from '../team-state.js';
import type {
  ReadEventsOptions,
  ResumedRun,
  TeamEventListener,
  TeamInfo,
  TeamRules,
  TeamSetup,
  TeamStore,
  TransactOptions,
} from '../team-store.js';
import { runTransaction, stampEvents } from '../transaction.js';

/** What `new MemoryStore` takes. */
export interface MemoryStoreOptions {
  /** The clock tasks, messages and events are stamped with. Default: the system clock. */
  now?: () => Date;
}

const MEMORY_STORE_SCHEMA = z.strictObject({
  now: fn<() => Date>('a function answering a Date').optional(),
} satisfies Record<keyof MemoryStoreOptions, z.ZodType>);

/**
 * Keeps teams in this process's memory: the default store of `team.run()` and of tests.
 * A transaction is one synchronous step, so it is atomic by construction; nothing survives
 * the process.
 *
 * @example
 * const store = new MemoryStore();
 * await store.createTeam('newsroom', { lead: 'editor', members: ['writer'] });
 * await store.transact('newsroom', ({ board }) => board.createTask({ title: 'Draft' }, 'editor'));
 */
export class MemoryStore implements TeamStore {
  readonly #teams = new Map<string, TeamState>();
  readonly #runs = new Map<string, { record: RunRecord; log: TeamEvent[] }>();
  readonly #subscribers = new Subscribers();
  readonly #live = new LiveRuns();
  readonly #now: () => Date;
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    parseOptions(MEMORY_STORE_SCHEMA, options, 'a MemoryStore');
    this.#now = options.now ?? (() => new Date());
  }

  async createTeam(name: string, setup: TeamSetup): Promise<TeamInfo> {
    this.#open();
    checkName('team', name);
    const existing = this.#teams.get(name);
    const info = describeTeam(name, setup, existing?.info, this.#now(), randomUUID);
    if (existing && sameSetup(existing.info, info)) return existing.info;
    if (existing) this.#live.refuse(name, existing.info.runId);
    this.#teams.set(name, existing ? withInfo(existing, info) : teamState(info));
    return info;
  }

  async getTeam(name: string): Promise<TeamInfo | undefined> {
    this.#open();
    checkName('team', name);
    return this.#teams.get(name)?.info;
  }

  async listTeams(): Promise<TeamInfo[]> {
    this.#open();
    return [...this.#teams.values()].map((state) => state.info);
  }

  async transact<T>(name: string, fn: (rules: TeamRules) => T, options?: TransactOptions): Promise<T> {
    this.#open();
    const state = this.#team(name);
    const { value, drafts } = runTransaction(state, fn, this.#now);
    const events = stampEvents(state, drafts, this.#now());
    this.#publish(state, events);
    options?.committed?.(events);
    return value;
  }

  async startRun(name: string, options: { fresh?: boolean } = {}): Promise<TeamInfo> {
    this.#open();
    checkStartOptions(options);
    const state = this.#team(name);
    this.#live.refuse(name, state.info.runId);
    const info: TeamInfo = {
      ...state.info,
      runId: newRunId(name, this.#now()),
      updatedAt: this.#now().toISOString(),
    };
    const next = options.fresh === false ? withInfo(state, info, { requests: false }) : teamState(info);
    next.eventSeq = 0;
    this.#teams.set(name, next);
    const runId = info.runId as string;
    const record = { runId, team: name, teamId: info.teamId, startedAt: info.updatedAt };
    this.#runs.set(runId, { record, log: [] });
    this.#live.enter(name, runId);
    return info;
  }

  async resumeRun(name: string): Promise<ResumedRun | undefined> {
    this.#open();
    const state = this.#team(name);
    const run = state.info.runId ? this.#runs.get(state.info.runId) : undefined;
    if (!run || run.record.teamId !== state.info.teamId || !canResume(run.log)) return undefined;
    this.#live.refuse(name, run.record.runId);
    this.#live.enter(name, run.record.runId);
    state.eventSeq = run.log.at(-1)?.seq ?? 0;
    return { info: state.info, events: [...run.log] };
  }

  async leaveRun(name: string, runId: string): Promise<void> {
    this.#open();
    checkName('team', name);
    this.#live.leave(name, checkRunId(runId));
  }

  async listRuns(options: { team?: string; runId?: string } = {}): Promise<RunListing[]> {
    this.#open();
    const runs = [...this.#runs.values()]
      .map(({ record }) => record)
      .filter((record) => options.team === undefined || record.team === options.team)
      .filter((record) => options.runId === undefined || record.runId === options.runId)
      .map((record) => ({ ...record, live: this.#live.runs(record.team) === record.runId }));
    return runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  async readEvents(runId: string, options?: ReadEventsOptions): Promise<TeamEvent[]> {
    this.#open();
    const log = this.#runs.get(checkRunId(runId))?.log ?? [];
    const afterSeq = checkAfterSeq(options);
    // Seqs ascend: find the first past `afterSeq` by bisection, so a catch-up costs its tail.
    let low = 0;
    let high = log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((log[middle] as TeamEvent).seq > afterSeq) high = middle;
      else low = middle + 1;
    }
    return log.slice(low);
  }

  subscribe(name: string, listener: TeamEventListener): () => void {
    this.#open();
    return this.#subscribers.add(name, listener);
  }

  /** Throws `store-closed` once `close()` was called. */
  #open(): void {
    if (this.#closed) throw storeClosed('MemoryStore');
  }

  /** Nothing to release; later calls are refused (`store-closed`), as on every store. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  #team(name: string): TeamState {
    checkName('team', name);
    return requireTeam(name, this.#teams.get(name));
  }

  #publish(state: TeamState, events: TeamEvent[]): void {
    if (state.info.runId) this.#runs.get(state.info.runId)?.log.push(...events);
    this.#live.settle(state.info.name, events);
    this.#subscribers.publish(state.info.name, events);
  }
}
