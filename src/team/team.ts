import type { LanguageModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { BUDGET_SCHEMA, type Budget } from '../agent/budget.js';
import { loadPrices } from '../agent/price-data.js';
import { type ModelSpec, resolveModel } from '../agent/resolve-model.js';
import { TeamError } from '../errors/index.js';
import { checkName } from '../errors/names.js';
import { parseOptions, satisfying } from '../errors/options-schema.js';
import { importPeer, PG } from '../errors/peer-dependency.js';
import { TeamEmitter, type TeamEventHandler } from '../events/team-emitter.js';
import type { TeamEventType } from '../events/team-event-map.js';
import type { TeamRunResult } from '../fold/run-result.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { checkRunInput } from '../prompt/prompt-room.js';
import { abortRun } from '../run/control.js';
import { TeamRunHandle } from '../run/handle.js';
import { RunLoop } from '../run/loop.js';
import type { TeamSettings } from '../run/team-settings.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { OutageWatch } from '../store/outage-watch.js';
import type { TeamStore } from '../store/team-store.js';
import { RunTracing } from '../telemetry/run-tracing.js';
import type { TeamHooks } from '../tools/hooks.js';
import { InProcessExecutor, type LiveSink } from '../turn/executor.js';
import { ThreadMemory } from '../turn/threads.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import { checkPricedForBudgets } from './priced-budgets.js';
import { type TeamConfig, teamSettings } from './team-options.js';

/** What `team.run` and `team.start` take. */
export interface RunOptions {
  /** The request for the lead. */
  input: string;
  /** `true` (default): start from an empty task list and inboxes. */
  fresh?: boolean;
  /** Aborts the run cleanly: turns stop, nothing is left in progress, `stopReason: 'aborted'`. */
  signal?: AbortSignal;
  /** Keeps each agent's history across its turns (and runs) in this thread; without it a turn starts fresh. */
  threadId?: string;
  /** What this run may spend, instead of the team's `budget`. */
  budget?: Budget;
}

const INPUT = 'a non-empty string, the request for the lead';

/** How long logging a pg-boss error (`team:error`) waits for a store out of reach. */
const PG_BOSS_ERROR_WAIT_MS = 1_000;

/** The schema of `RunOptions`: every key of it (`satisfies` keeps the list whole), none other. */
const RUN_SCHEMA = z.strictObject({
  input: z.string({ error: INPUT }).refine((input) => input.trim() !== '', { error: INPUT }),
  fresh: z.boolean().optional(),
  signal: satisfying<AbortSignal>((signal) => signal instanceof AbortSignal, 'an AbortSignal').optional(),
  // A name (it names the thread's files), checked as one after.
  threadId: z.string().optional(),
  budget: BUDGET_SCHEMA.optional(),
} satisfies Record<keyof RunOptions, z.ZodType>);

/**
 * A lead and its members on a shared task list with mailboxes.
 *
 * @example
 * const newsroom = new Team({ name: 'newsroom', lead: editor, members: [researcher, writer, checker],
 *   maxTurnsPerMember: 6, maxConcurrentMembers: 2 });
 * newsroom.on('team:task-claimed', (event) => console.log(event.data.member, event.data.task.id));
 * const result = await newsroom.run({ input: 'Write a short article about tides' });
 * console.log(result.output);
 */
export class Team {
  /** The team's name, unique in its store. */
  readonly name: string;
  /** The agent that plans and answers. */
  readonly lead: Agent;
  /** The agents that work on the tasks. */
  readonly members: readonly Agent[];
  /** Where its task list, mailboxes and event log live (a `MemoryStore` by default). */
  readonly store: TeamStore;
  readonly #config: TeamConfig;
  readonly #settings: TeamSettings;
  readonly #emitter = new TeamEmitter();
  readonly #threads = new ThreadMemory();

  constructor(config: TeamConfig) {
    this.#settings = teamSettings(config);
    this.#config = config;
    this.name = this.#settings.name;
    this.lead = this.#settings.lead;
    this.members = this.#settings.members;
    this.store = config.store ?? new MemoryStore();
  }

  /** How many turns the lead (synthesis not counted) and each member may take in a run. */
  get turnLimits(): {
    /** The lead's turns in a run. */
    readonly lead: number;
    /** Each member's turns in a run. */
    readonly member: number;
  } {
    return { lead: this.#settings.maxLeadTurns, member: this.#settings.maxTurnsPerMember };
  }

  /**
   * The team's lifecycle hooks (its `hooks` option): a process that changes the board of one
   * of its runs for the person (the Studio, `agent-teams task add --file`) has them judge as
   * the run would.
   */
  get hooks(): TeamHooks {
    return this.#settings.hooks;
  }

  /** Listens to one event type (or `*` for all). Returns the unsubscribe. */
  on<K extends TeamEventType>(type: K | '*', handler: TeamEventHandler<K>): () => void {
    return this.#emitter.on(type, handler);
  }

  /**
   * The same team with every agent's model replaced (the catalog's entries too): one model, or
   * one per agent. One model also replaces the models allowed for spawned members (`spawnModels`).
   */
  withModel(model: ModelSpec | ((agent: Agent) => ModelSpec)): Team {
    const pick = typeof model === 'function' ? model : () => model;
    const { catalog, spawnModels } = this.#settings.formation;
    return new Team({
      ...this.#config,
      store: this.store,
      lead: this.lead.withModel(pick(this.lead)),
      members: this.members.map((member) => member.withModel(pick(member))),
      ...(this.#config.catalog === undefined
        ? {}
        : {
            catalog: Object.fromEntries(
              Object.entries(catalog).map(([name, entry]) => [name, entry.withModel(pick(entry))]),
            ),
          }),
      ...(typeof model === 'function' || spawnModels.length === 0 ? {} : { spawnModels: [model] }),
    });
  }

  /** The same team on another store (the CLI puts every team it runs on its FileStore). */
  withStore(store: TeamStore): Team {
    return new Team({ ...this.#config, store });
  }

  /**
   * Starts a run (or, with `fresh: false`, resumes the team's last unfinished one) and answers
   * its handle once the run is open in the store. A team runs at most once at a time per
   * store: a second start is refused with `team-busy` before anything is written.
   */
  async start(options: RunOptions): Promise<TeamRunHandle> {
    parseOptions(RUN_SCHEMA, options, 'a run');
    if (options.threadId !== undefined) checkName('agent', options.threadId);
    checkRunInput(this.#settings, this.#settings.promptBudgetTokens, options.input);
    // Every model is resolved before anything runs, so a missing key fails fast and clearly.
    const models = this.#models();
    const budget = options.budget ?? this.#settings.budget;
    checkPricedForBudgets(this.#settings, models, budget);
    const workers = this.#settings.executor === 'workers' ? await this.#workerExecutor() : undefined;
    let tracing: RunTracing | undefined;
    const loop = new RunLoop({
      settings: this.#settings,
      store: this.store,
      emitter: this.#emitter,
      input: options.input,
      fresh: options.fresh ?? true,
      threadId: options.threadId ?? null,
      budget,
      executor: (halt, live) => workers ?? this.#executor(models, halt, this.store, live, () => tracing),
    });
    await loop.open().catch(async (error: unknown) => {
      await workers?.close();
      throw error;
    });
    // Its answers are priced as they come: the price data loads now, in the background.
    loadPrices();
    const { telemetry } = this.#settings;
    if (telemetry) tracing = new RunTracing(telemetry, this.name, loop.runId);
    const { signal } = options;
    // The signal aborts through the handle, like an abort from anywhere else: one commit,
    // made before the run takes its first step when the signal was aborted already.
    if (signal?.aborted) await abortRun(this.store, this.name, signal.reason).catch(() => undefined);
    let handle: TeamRunHandle | undefined;
    const abort = () => handle?.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const result = loop
      .drive()
      .then(
        (ended) => {
          tracing?.end({ stopReason: ended.teamResult.stopReason });
          return ended;
        },
        (error: unknown) => {
          tracing?.end({ error: error instanceof Error ? error.message : String(error) });
          throw error;
        },
      )
      .finally(async () => {
        signal?.removeEventListener('abort', abort);
        await workers?.close();
      });
    // Marked handled here: whoever awaits `run.result` still gets the rejection.
    result.catch(() => {});
    handle = new TeamRunHandle(loop, result, this.store, this.name, this.#settings.hooks);
    return handle;
  }

  /**
   * Runs one turn of one of this team's runs from its descriptor, in this process: any
   * process that loads the team's definition can (a worker does). Its tools act on this
   * team's store; the answer is how the turn ended, for the run's loop to close it.
   */
  async executeTurn(
    turn: TurnDescriptor,
    options: { signal?: AbortSignal; store?: TeamStore } = {},
  ): Promise<TurnOutcome> {
    // The descriptor carries what the turn reads of its run: no log is read here.
    const store = options.store ?? this.store;
    const executor = this.#executor(this.#models(), () => false, store);
    const execute = () => executor.execute(turn, options.signal ?? new AbortController().signal);
    // Its store calls wait for a store out of reach as long as a run of the team would.
    return store.withOutageWatch
      ? store.withOutageWatch(new OutageWatch(this.#settings.storeOutageMs), execute)
      : execute();
  }

  /** The executor of `executor: 'workers'`: loaded only then, as it needs pg and pg-boss. */
  async #workerExecutor() {
    const [{ PostgresStore }, { WorkerExecutor }] = await importPeer(
      () =>
        Promise.all([
          import('../store/postgres/postgres-store.js'),
          import('../turn/workers/worker-executor.js'),
        ]),
      PG,
    );
    if (!(this.store instanceof PostgresStore)) {
      throw new TeamError(
        'invalid-option',
        "executor: 'workers' needs the team's store to be a PostgresStore.",
        {
          details: { option: 'executor' },
        },
      );
    }
    const store = this.store;
    // A pg-boss error is never swallowed: a line on stderr, and the event in the run's log
    // when the store takes it soon (one that is out of reach is not waited for: the run's own
    // commits would queue behind it).
    const onError = (error: Error) => {
      process.stderr.write(`agent-teams: ${this.name}: pg-boss: ${error.message}\n`);
      const data = { source: 'pg-boss', message: error.message } as const;
      store
        .withOutageWatch(new OutageWatch(PG_BOSS_ERROR_WAIT_MS), () =>
          store.transact(this.name, ({ emit }) => emit({ type: 'team:error', data })),
        )
        .catch(() => undefined);
    };
    return WorkerExecutor.open(store, this.name, onError);
  }

  #models(): Map<string, LanguageModelV3> {
    const models = new Map<string, LanguageModelV3>();
    for (const agent of [this.lead, ...this.members]) models.set(agent.name, resolveModel(agent.model));
    return models;
  }

  #executor(
    models: ReadonlyMap<string, LanguageModelV3>,
    halt: () => boolean,
    store: TeamStore,
    live?: LiveSink,
    tracing?: () => RunTracing | undefined,
  ): InProcessExecutor {
    return new InProcessExecutor({
      halt,
      ...(live ? { live } : {}),
      ...(tracing ? { tracing } : {}),
      team: { ...this.#settings, models },
      store,
      threads: this.#threads,
    });
  }

  /** Runs the team to its end: `(await team.start(options)).result`. */
  async run(options: RunOptions): Promise<TeamRunResult> {
    return (await this.start(options)).result;
  }
}
