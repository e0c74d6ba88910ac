import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { TelemetrySettings } from 'ai';
import type { Agent } from '../agent/agent.js';
import type { KnownPrice } from '../agent/price-data.js';
import { modelName, resolveModel } from '../agent/resolve-model.js';
import { type FormationSettings, joinedAgent } from '../agent/team-formation.js';
import { type ModelPrice, type NoPrice, priceOf } from '../agent/usage.js';
import type { Clock } from '../events/clock.js';
import type { TeamEvent, TeamEventDraft } from '../events/team-event-map.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { briefingRoom, systemPrompt } from '../prompt/prompt-room.js';
import { type TurnPrompt, turnPrompt } from '../prompt/turn-prompt.js';
import type { TeamRules, TeamStore, TransactOptions } from '../store/team-store.js';
import type { RunTracing } from '../telemetry/run-tracing.js';
import { turnHeaders } from '../telemetry/turn-headers.js';
import type { GovernanceSettings } from '../tools/governance-settings.js';
import type { TeamHooks } from '../tools/hooks.js';
import { makeApprovedCalls } from './approved-calls.js';
import { judgeTurnEnd } from './hooks-turn.js';
import { newMessages } from './mid-turn.js';
import { type ModelTurnOutcome, runModelTurn } from './model-turn.js';
import type { ThreadMemory } from './threads.js';
import { promptDraft, type TranscriptModel, TurnTranscript } from './transcript.js';
import { TurnCut } from './turn-cut.js';
import { thrownOutcome } from './turn-failure.js';
import type { TurnOutcome } from './turn-outcome.js';
import { turnTools } from './turn-tools.js';

/** Runs turns from their descriptors: in this process, or on worker processes elsewhere. */
export interface TurnExecutor {
  /** Runs a turn to its end. Never rejects: a failure or an abort is its outcome. */
  execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome>;
  /**
   * Commits `start` (turns' starts, decided in the transaction) and does in the same
   * transaction what each turn it answers needs there (hands it over to a worker, reads its
   * briefing). Without it the loop commits with the store's `transact`. `options` as for the
   * store's `transact`.
   */
  commitStart?<T>(
    team: string,
    start: (rules: TeamRules) => T,
    turnsOf: (value: T) => readonly TurnDescriptor[],
    options?: TransactOptions,
  ): Promise<T>;
  /** Sees every event the run's loop folds, in order (workers' outcomes arrive in the log). */
  notice?(event: TeamEvent): void;
  /** Takes on a member that joined during the run (`run.addMember`). */
  join?(agent: Agent): void;
}

/** Where a turn's live-only events go (`team:text-delta`: shown, never logged). */
export interface LiveSink {
  emit(event: TeamEventDraft): void;
  /** Whether anyone watches the run's live text now: a turn that starts then streams its text. */
  watching(): boolean;
}

/** What running a team's turns needs of the team: its agents, their models and prices. */
interface TeamDefinition {
  readonly name: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  readonly selfClaim: boolean;
  /** Each agent's resolved model, by agent name. */
  readonly models: ReadonlyMap<string, LanguageModelV3>;
  readonly pricing: Readonly<Record<string, ModelPrice>>;
  /** A turn's bound in ms, unless its agent sets one. */
  readonly turnTimeoutMs: number;
  /** The clock the turn's bound is measured on. */
  readonly clock: Clock;
  /** The bound of a turn's system prompt and briefing together, and of each team tool's answer. */
  readonly promptBudgetTokens: number;
  readonly governance: GovernanceSettings;
  /** What the lead may spawn (and a spawned member is made from), and whether it only coordinates. */
  readonly formation: FormationSettings;
  readonly maxTurnsPerMember: number;
  readonly hooks: TeamHooks;
}

export interface InProcessExecutorOptions {
  readonly team: TeamDefinition;
  readonly store: TeamStore;
  readonly threads: ThreadMemory;
  /** True once running turns should end after their current step (the run reached its budget). */
  readonly halt: () => boolean;
  /** Where live-only events go; without it (a worker: nobody there watches) turns never stream. */
  readonly live?: LiveSink;
  /** The run's spans, when the team traces (`telemetry`). */
  readonly tracing?: () => RunTracing | undefined;
}

interface Equipment {
  readonly agent: Agent;
  readonly role: 'lead' | 'member';
  readonly model: LanguageModelV3;
  readonly system: string;
  /** The tokens its briefings have: the prompt budget less its system prompt. */
  readonly room: number;
  /** Its model as usage names and prices it (the price looked up at its first answer). */
  readonly priced: TranscriptModel;
}

/**
 * Runs each turn here: reads its briefing from the store as the descriptor names it, then
 * one AI SDK tool loop with the agent's team tools bound to it (its own tools take their
 * names' places). Nothing of the run is shared with a turn but the store and the descriptor.
 */
export class InProcessExecutor implements TurnExecutor {
  readonly #options: InProcessExecutorOptions;
  readonly #equipped = new Map<string, Equipment>();
  /** Members that joined during the run: given here, or made from their descriptors' definitions. */
  readonly #joined = new Map<string, Agent>();
  /** Their models, resolved when first needed (a member's own turn), or when given here. */
  readonly #joinedModels = new Map<string, LanguageModelV3>();
  /** Briefings read in the transaction that started their turn (see `commitStart`). */
  readonly #briefed = new WeakMap<TurnDescriptor, TurnPrompt>();

  constructor(options: InProcessExecutorOptions) {
    this.#options = options;
  }

  join(agent: Agent): void {
    this.#joinedModels.set(agent.name, resolveModel(agent.model));
    this.#add(agent);
  }

  #add(agent: Agent): void {
    this.#joined.set(agent.name, agent);
    // System prompts name the teammates: each is made again for its agent's next turn.
    this.#equipped.clear();
  }

  /**
   * Takes on the members a turn's context says joined during the run and this process has
   * not been given: each is made from its definition (a catalog entry of the team, or the
   * instructions its join recorded). Its model is resolved for its own turns only, so a
   * missing key fails that member's turns, saying what to set, and nobody else's.
   */
  #joinFrom(turn: TurnDescriptor): void {
    const known = (name: string) => this.#joined.has(name) || this.#agent(name) !== undefined;
    for (const member of turn.context?.joined ?? []) {
      if (!known(member.name)) this.#add(joinedAgent(this.#options.team.formation, member));
    }
  }

  /**
   * Commits a turn's start and reads its briefing in the same transaction (logging it there):
   * one commit fewer per turn than reading it when the turn runs. A briefing that cannot be
   * read there (an agent this process cannot equip) is left for the turn, which then fails
   * with the error as before.
   */
  async commitStart<T>(
    team: string,
    start: (rules: TeamRules) => T,
    turnsOf: (value: T) => readonly TurnDescriptor[],
    options?: TransactOptions,
  ): Promise<T> {
    let briefed: { turn: TurnDescriptor; briefing: TurnPrompt }[] = [];
    const value = await this.#options.store.transact(
      team,
      (rules) => {
        // A store may run this again (under its lock): only the last run's briefings count.
        briefed = [];
        const value = start(rules);
        for (const turn of turnsOf(value)) {
          const briefing = this.#briefingIn(rules, turn);
          if (!briefing) continue;
          if (briefing.requests.approvedCalls.length === 0) rules.emit(promptDraft(turn, briefing.text));
          briefed.push({ turn, briefing });
        }
        return value;
      },
      options,
    );
    for (const { turn, briefing } of briefed) this.#briefed.set(turn, briefing);
    return value;
  }

  /** The turn's briefing as `rules` read it, or `undefined` when its agent cannot be equipped here. */
  #briefingIn(rules: TeamRules, turn: TurnDescriptor): TurnPrompt | undefined {
    try {
      this.#joinFrom(turn);
      const { room } = this.#equipment(turn.agent);
      const context = { members: this.#members(), selfClaim: this.#options.team.selfClaim, room };
      return turnPrompt(rules, turn, context);
    } catch {
      return undefined;
    }
  }

  async execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome> {
    const span = this.#options.tracing?.()?.turn(turn);
    const run = () => this.#execute(turn, signal, span?.telemetry);
    const outcome = await (span ? span.within(run) : run());
    span?.end(outcome.kind === 'failed' ? outcome.error : undefined);
    return outcome;
  }

  async #execute(
    turn: TurnDescriptor,
    signal: AbortSignal,
    telemetry: TelemetrySettings | undefined,
  ): Promise<TurnOutcome> {
    const { store, team, threads } = this.#options;
    const cut = new TurnCut(signal, team.clock, this.#agent(turn.agent)?.turnTimeoutMs ?? team.turnTimeoutMs);
    // The turn's own tools: read_inbox gives only what the turn was not given yet.
    const seen = new Set(turn.messageIds);
    const delivered = () => [...seen].filter((id) => !turn.messageIds.includes(id));
    // Messages of the descriptor its briefing had no room for and read_inbox did not give: they stay unread.
    const unread = () => turn.messageIds.filter((id) => !seen.has(id));
    let transcript: TurnTranscript | undefined;
    try {
      this.#joinFrom(turn);
      const equipment = this.#equipment(turn.agent);
      const log = new TurnTranscript(store, turn, equipment.priced);
      transcript = log;
      const briefing = await this.#briefing(turn, equipment.room);
      seen.clear();
      for (const id of briefing.shown) seen.add(id);
      const outcome = await this.#call(turn, equipment, briefing, { seen, log, cut, telemetry });
      // Its transcript is in the log before the turn is closed.
      await log.flush();
      threads.remember(turn.threadId ?? undefined, equipment.agent.name, outcome.messages);
      const done = {
        kind: 'done',
        text: outcome.text,
        delivered: delivered(),
        unread: unread(),
      } as const;
      const judged = { store, hooks: team.hooks, turn, outcome: done };
      const rejected = await judgeTurnEnd({ ...judged, maxTurnsPerMember: team.maxTurnsPerMember });
      return rejected ? { ...done, rejected } : done;
    } catch (error) {
      // What the cut turn did since its last commit (its tools' answers) is logged all the same.
      await transcript?.flush().catch(() => undefined);
      const { aborted, timedOut, timeoutMs, hookFailure } = cut;
      const how = { aborted, timedOut, timeoutMs, hookFailure, delivered: delivered(), unread: unread() };
      return thrownOutcome(error, turn, how);
    } finally {
      cut.dispose();
    }
  }

  /** The turn's briefing: the one read in the transaction that started it, or read (and logged) now. */
  async #briefing(turn: TurnDescriptor, room: number): Promise<TurnPrompt> {
    const briefed = this.#briefed.get(turn);
    if (briefed) {
      this.#briefed.delete(turn);
      return briefed;
    }
    const { store, team } = this.#options;
    const context = { members: this.#members(), selfClaim: team.selfClaim, room };
    return store.transact(team.name, (rules) => {
      const read = turnPrompt(rules, turn, context);
      // The briefing goes in the log with its read, unless approved calls add their answers to it.
      if (read.requests.approvedCalls.length === 0) rules.emit(promptDraft(turn, read.text));
      return read;
    });
  }

  /**
   * The turn's model call: its tools bound to it, the calls approved since it asked made first
   * (their answers added to its prompt), then one AI SDK tool loop whose every answer and step
   * the transcript commits.
   */
  async #call(
    turn: TurnDescriptor,
    { agent, role, model, system, room }: Equipment,
    briefing: TurnPrompt,
    on: {
      readonly seen: Set<string>;
      readonly log: TurnTranscript;
      readonly cut: TurnCut;
      readonly telemetry: TelemetrySettings | undefined;
    },
  ): Promise<ModelTurnOutcome> {
    const { store, team, threads, live } = this.#options;
    const { seen, log, cut, telemetry } = on;
    const { tools, governance } = turnTools({
      ...team,
      store,
      team: team.name,
      turn,
      agent,
      role,
      seen,
      onHookFailure: cut.hookFailed,
      requests: briefing.requests,
    });
    // Calls approved since the agent asked are made as asked, before the model's first step.
    const made = await makeApprovedCalls(governance, tools, briefing.requests.approvedCalls);
    const prompt = made ? `${briefing.text}\n\n${made}` : briefing.text;
    if (briefing.requests.approvedCalls.length > 0) log.prompt(prompt);
    const synthesis = turn.reason === 'synthesis';
    return runModelTurn({
      model,
      system,
      history: threads.history(turn.threadId ?? undefined, agent.name),
      prompt,
      tools: log.wrap(synthesis ? {} : tools),
      maxSteps: synthesis ? 1 : agent.maxIterations,
      signal: cut.signal,
      maxRetries: agent.maxRetries,
      // A turn that asked for something ends after the step that asked.
      halt: () => this.#options.halt() || governance.opened.length > 0,
      headers: turnHeaders({ ...turn }),
      temperature: agent.temperature,
      maxOutputTokens: agent.maxOutputTokens,
      providerOptions: agent.providerOptions,
      // Messages that arrive while the turn runs are given to it between steps, once.
      between: async (step) => {
        const fresh = await newMessages({
          store,
          team: team.name,
          agent: agent.name,
          seen,
          room: Math.floor(room / 4),
        });
        if (fresh) log.given(step, fresh.text, fresh.ids);
        return fresh?.text ?? null;
      },
      // Each answer is committed (its usage, text and calls) before its tools run.
      onResponse: (response) => log.response(response),
      onStep: (step) => log.stepEnded(step),
      // Streamed only for someone watching: a plain call costs less.
      ...(live?.watching()
        ? {
            onText: (delta: string) =>
              live.emit({ type: 'team:text-delta', data: { agent: agent.name, turn: turn.turn, delta } }),
          }
        : {}),
      ...(telemetry ? { telemetry } : {}),
    });
  }

  #agent(name: string): Agent | undefined {
    const { team } = this.#options;
    if (team.lead.name === name) return team.lead;
    return team.members.find((member) => member.name === name) ?? this.#joined.get(name);
  }

  #members(): readonly Agent[] {
    return [...this.#options.team.members, ...this.#joined.values()];
  }

  /** A joined member's model, resolved the first time one of its turns needs it. */
  #joinedModel(agent: Agent): LanguageModelV3 {
    let model = this.#joinedModels.get(agent.name);
    if (!model) {
      model = resolveModel(agent.model);
      this.#joinedModels.set(agent.name, model);
    }
    return model;
  }

  #equipment(name: string): Equipment {
    let made = this.#equipped.get(name);
    if (made) return made;
    const { team } = this.#options;
    const agent = this.#agent(name);
    if (!agent) throw new Error(`The team ${team.name} has no agent ${name}`);
    const model = team.models.get(name) ?? this.#joinedModel(agent);
    const role = agent === team.lead ? 'lead' : 'member';
    const system = systemPrompt({ ...team, members: this.#members() }, agent);
    let price: KnownPrice | NoPrice | undefined;
    const priced = {
      name: modelName(model),
      // Once per agent. The run loads the price data in the background as it opens; should
      // an answer come first, it is read at once rather than waited for.
      price: () => {
        price ??= priceOf(model.modelId, team.pricing);
        return price;
      },
    };
    made = { agent, role, model, system, room: briefingRoom(team.promptBudgetTokens, system), priced };
    this.#equipped.set(name, made);
    return made;
  }
}
