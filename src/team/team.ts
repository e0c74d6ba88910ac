import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Agent } from '../agent/agent.js';
import { type ModelSpec, resolveModel } from '../agent/resolve-model.js';
import { TeamError } from '../errors/index.js';
import { TeamEmitter, type TeamEventHandler } from '../events/team-emitter.js';
import type { TeamEventType } from '../events/team-event-map.js';
import { checkName } from '../state/names.js';
import { MemoryStore } from '../store/memory-store.js';
import type { TeamStore } from '../store/team-store.js';
import type { TeamRunResult } from './run-result.js';
import { type TeamConfig, type TeamSettings, teamSettings } from './team-options.js';
import { TeamRun } from './team-run.js';
import { ThreadMemory } from './threads.js';

export interface RunOptions {
  /** The request for the lead. */
  input: string;
  /** `true` (default): start from an empty task list and inboxes. */
  fresh?: boolean;
  /** Aborts the run cleanly: turns stop, nothing is left in progress, `stopReason: 'aborted'`. */
  signal?: AbortSignal;
  /** Keeps each agent's history across its turns (and runs) in this thread; without it a turn starts fresh. */
  threadId?: string;
}

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
  readonly name: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  readonly store: TeamStore;
  readonly #config: TeamConfig;
  readonly #settings: TeamSettings;
  readonly #emitter = new TeamEmitter();
  readonly #threads = new ThreadMemory();
  #running = false;

  constructor(config: TeamConfig) {
    this.#settings = teamSettings(config);
    this.#config = config;
    this.name = this.#settings.name;
    this.lead = this.#settings.lead;
    this.members = this.#settings.members;
    this.store = config.store ?? new MemoryStore();
  }

  /** Listens to one event type (or `*` for all). Returns the unsubscribe. */
  on<K extends TeamEventType>(type: K | '*', handler: TeamEventHandler<K>): () => void {
    return this.#emitter.on(type, handler);
  }

  /** The same team with every agent's model replaced: one model, or one per agent. */
  withModel(model: ModelSpec | ((agent: Agent) => ModelSpec)): Team {
    const pick = typeof model === 'function' ? model : () => model;
    return new Team({
      ...this.#config,
      store: this.store,
      lead: this.lead.withModel(pick(this.lead)),
      members: this.members.map((member) => member.withModel(pick(member))),
    });
  }

  /** The same team on another store (the CLI puts every team it runs on its FileStore). */
  withStore(store: TeamStore): Team {
    return new Team({ ...this.#config, store });
  }

  async run(options: RunOptions): Promise<TeamRunResult> {
    if (
      typeof options !== 'object' ||
      options === null ||
      typeof options.input !== 'string' ||
      !options.input.trim()
    ) {
      throw new TeamError(
        'invalid-input',
        'run() needs { input }: the request for the lead, a non-empty string.',
      );
    }
    if (options.threadId !== undefined) checkName('agent', options.threadId);
    if (this.#running) {
      throw new TeamError('invalid-input', `The team ${this.name} is running already: await that run first.`);
    }
    // Every model is resolved before anything runs, so a missing key fails fast and clearly.
    const models = new Map<string, LanguageModelV3>();
    for (const agent of [this.lead, ...this.members]) models.set(agent.name, resolveModel(agent.model));
    this.#running = true;
    try {
      return await new TeamRun({
        settings: this.#settings,
        store: this.store,
        emitter: this.#emitter,
        models,
        threads: this.#threads,
        input: options.input,
        fresh: options.fresh ?? true,
        signal: options.signal,
        threadId: options.threadId,
      }).execute();
    } finally {
      this.#running = false;
    }
  }
}
