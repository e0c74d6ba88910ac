import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ToolSet } from 'ai';
import { addUsage, NO_USAGE, turnUsage } from '../agent/usage.js';
import { TeamError } from '../errors/index.js';
import type { TeamEmitter } from '../events/team-emitter.js';
import type { StopReason, TeamEvent, TurnReason } from '../events/team-event-map.js';
import type { TeamRules, TeamStore } from '../store/team-store.js';
import { type AgentState, agentResult, agentState, memberSummary } from './agent-state.js';
import { leadSystem, memberSystem, type TeamPicture, tasksAsOutput } from './briefings.js';
import { type ModelTurnOutcome, runModelTurn } from './model-turn.js';
import type { TeamRunResult } from './run-result.js';
import type { TeamSettings } from './team-options.js';
import type { ThreadMemory } from './threads.js';
import { createTeamTools, teamToolsFor } from './tools/create-team-tools.js';
import { turnHeaders } from '../turn/turn-headers.js';
import { endTurn } from './turn-end.js';
import { type LeadContext, startLead, startMember, type TurnStart } from './turn-start.js';

export interface RunInput {
  readonly settings: TeamSettings;
  readonly store: TeamStore;
  readonly emitter: TeamEmitter;
  readonly models: ReadonlyMap<string, LanguageModelV3>;
  readonly threads: ThreadMemory;
  readonly input: string;
  readonly fresh: boolean;
  readonly signal: AbortSignal | undefined;
  readonly threadId: string | undefined;
}

// Events that show the team's work moved on (as opposed to turns starting and ending).
const PROGRESS = new Set<string>([
  'team:task-created',
  'team:task-assigned',
  'team:task-claimed',
  'team:task-updated',
  'team:task-completed',
  'team:message-sent',
]);

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One run of a team. Event-driven: a single loop reacts to committed events and to turns
 * ending, starts every turn that has a reason (a pool of `maxConcurrentMembers` members),
 * and decides the end when nothing runs. Only the loop starts turns, so one wake-up is
 * handled fully before the next; turns run concurrently and report back by waking it.
 */
export class TeamRun {
  readonly #run: RunInput;
  readonly #picture: TeamPicture;
  readonly #lead: AgentState;
  readonly #members: AgentState[];
  readonly #leadContext: LeadContext;
  readonly #abort = new AbortController();
  readonly #running = new Set<Promise<void>>();
  #runId = '';
  #woken = false;
  #wakeUp: (() => void) | undefined;
  /** The reason of the lead's turn in flight, if one is. */
  #leadTurn: TurnReason | null = null;
  /** The lead's reply in its first turn, once that turn is over. */
  #startOutput: string | undefined;
  #progress = 0;
  #progressAtStall: number | undefined;
  /** What failed the run: an agent's turn, or (with no agent) the store under the loop. */
  #failure: { agent: string | undefined; error: unknown } | undefined;
  #rotation = 0;
  readonly #equipped = new Map<AgentState, { tools: ToolSet; system: string }>();

  constructor(run: RunInput) {
    this.#run = run;
    const { settings, models } = run;
    const stateOf = (agent: TeamSettings['lead'], role: 'lead' | 'member') =>
      agentState(agent, role, models.get(agent.name) as LanguageModelV3, settings.pricing);
    this.#lead = stateOf(settings.lead, 'lead');
    this.#members = settings.members.map((member) => stateOf(member, 'member'));
    this.#picture = { team: settings.name, lead: settings.lead, members: settings.members };
    this.#leadContext = {
      input: run.input,
      members: settings.members,
      memberStates: this.#members,
      selfClaim: settings.selfClaim,
    };
  }

  async execute(): Promise<TeamRunResult> {
    const { store, settings, signal } = this.#run;
    await store.createTeam(settings.name, {
      lead: settings.lead.name,
      members: settings.members.map((member) => member.name),
      selfClaim: settings.selfClaim,
      maxTasks: settings.maxTasks,
    });
    const resumed = this.#run.fresh ? undefined : await store.resumeRun(settings.name);
    if (resumed) this.#restore(resumed.events);
    else this.#runId = (await store.startRun(settings.name, { fresh: this.#run.fresh })).runId as string;
    const unsubscribe = store.subscribe(settings.name, (events) => this.#observe(events));
    const abort = () => this.#abort.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    try {
      await this.#transact(({ board, emit }) => {
        if (resumed) {
          // Whatever was in progress when the run stopped was cut off: it goes back to the list.
          const requeued = board.requeueInProgress(settings.lead.name).map((task) => task.id);
          emit({ type: 'team:resumed', data: { requeued } });
          return;
        }
        const members = settings.members.map((member) => member.name);
        emit({ type: 'team:start', data: { lead: settings.lead.name, members, input: this.#run.input } });
        // With fresh: false the list may hold the last run's tasks: seed only an empty one.
        if (board.counts().total > 0) return;
        for (const task of settings.tasks) board.createTask(task, settings.lead.name);
      });
      if (!this.#abort.signal.aborted && this.#startOutput === undefined) await this.#launchLead('start');
      return await this.#finish(await this.#loop());
    } finally {
      signal?.removeEventListener('abort', abort);
      unsubscribe();
    }
  }

  /** Picks a run up where its log stops: turn counters, who failed or stopped, the lead's plan. */
  #restore(events: readonly TeamEvent[]): void {
    this.#runId = events[0]?.runId ?? '';
    const states = new Map([this.#lead, ...this.#members].map((state) => [state.agent.name, state]));
    for (const event of events) {
      if (event.type === 'team:start' && event.data.input !== this.#run.input) {
        throw new TeamError(
          'invalid-input',
          `The run ${this.#runId} was started with another input; give the same input to resume it, or use fresh: true.`,
          { details: { runId: this.#runId } },
        );
      }
      if (event.type === 'team:member-started') {
        const state = states.get(event.data.member);
        if (!state) continue;
        state.turns++;
        if (event.data.reason !== 'synthesis') state.countedTurns++;
      }
      if (event.type === 'team:member-finished') {
        const state = states.get(event.data.member);
        if (state?.role === 'member' && (event.data.status === 'failed' || event.data.status === 'stopped')) {
          state.status = event.data.status;
        }
        if (state?.role === 'lead' && event.data.reason === 'start') this.#startOutput = event.data.output;
      }
    }
  }

  #observe(events: readonly TeamEvent[]): void {
    for (const event of events) {
      this.#run.emitter.emit(event);
      if (PROGRESS.has(event.type)) this.#progress++;
    }
    this.#wake();
  }

  #wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
    this.#wakeUp = undefined;
  }

  async #sleep(): Promise<void> {
    if (!this.#woken) await new Promise<void>((resolve) => (this.#wakeUp = resolve));
  }

  #transact<T>(fn: (rules: TeamRules) => T): Promise<T> {
    return this.#run.store.transact(this.#run.settings.name, fn);
  }

  get #stopping(): boolean {
    return this.#failure !== undefined || this.#abort.signal.aborted;
  }

  /** The run's loop: start what can start; when nothing runs, decide how the run goes on or ends. */
  async #loop(): Promise<StopReason> {
    for (;;) {
      this.#woken = false;
      try {
        if (!this.#stopping) await this.#schedule();
        if (this.#running.size === 0) {
          if (this.#failure) return 'failed';
          if (this.#abort.signal.aborted) return 'aborted';
          const end = await this.#whenIdle();
          if (end) return end;
          continue;
        }
      } catch (error) {
        // The store failed under the loop: stop the turns, then end the run as failed.
        this.#fail(undefined, error);
        continue;
      }
      await this.#sleep();
    }
  }

  async #schedule(): Promise<void> {
    const { maxConcurrentMembers, maxLeadTurns, maxTurnsPerMember } = this.#run.settings;
    while (this.#members.filter((state) => state.status === 'working').length < maxConcurrentMembers) {
      // Members in turn order, so that one does not take every task.
      const order = [...this.#members.slice(this.#rotation), ...this.#members.slice(0, this.#rotation)];
      const ready = order.filter(
        (state) => state.status === 'idle' && state.countedTurns < maxTurnsPerMember,
      );
      if (ready.length === 0) break;
      const start = await this.#transact((rules) => startMember(rules, ready, this.#leadTurn !== null));
      if (!start) break;
      this.#rotation = (this.#members.indexOf(start.state) + 1) % this.#members.length;
      this.#launch(start);
    }
    if (
      this.#leadTurn === null &&
      this.#startOutput !== undefined &&
      this.#lead.countedTurns < maxLeadTurns
    ) {
      await this.#launchLead('message');
    }
  }

  /** Nothing runs: all done, or the lead gets a stalled turn, or the run ends stuck. */
  async #whenIdle(): Promise<StopReason | undefined> {
    const { maxLeadTurns } = this.#run.settings;
    const counts = await this.#transact(({ board }) => board.counts());
    if (counts.total === 0) return 'no-tasks';
    if (counts.pending + counts.inProgress === 0) return 'completed';
    // A stalled turn that changed nothing could not help, and another would not either.
    const helped = this.#progressAtStall === undefined || this.#progressAtStall !== this.#progress;
    if (this.#lead.countedTurns < maxLeadTurns && helped) {
      this.#progressAtStall = this.#progress;
      await this.#launchLead('stalled');
      return undefined;
    }
    const outOfTurns =
      this.#lead.countedTurns >= maxLeadTurns || this.#members.some((state) => state.status === 'stopped');
    return outOfTurns ? 'turn-limit' : 'stalled';
  }

  async #launchLead(reason: TurnReason): Promise<void> {
    const start = await this.#transact((rules) => startLead(rules, this.#lead, reason, this.#leadContext));
    if (start) this.#launch(start);
  }

  #launch(start: TurnStart): void {
    const { state } = start;
    state.status = 'working';
    state.turns++;
    if (start.reason !== 'synthesis') state.countedTurns++;
    state.taskId = start.task?.id ?? null;
    state.answered.clear();
    if (state.role === 'lead') this.#leadTurn = start.reason;
    const turn = this.#turn(start).finally(() => {
      this.#running.delete(turn);
      this.#wake();
    });
    this.#running.add(turn);
  }

  /** Runs one turn to its end; never rejects (a failure is recorded for the loop). */
  async #turn(start: TurnStart): Promise<void> {
    const { state } = start;
    const { tools, system } = this.#equipment(state);
    const synthesis = start.reason === 'synthesis';
    let outcome: ModelTurnOutcome | undefined;
    let error: unknown;
    try {
      outcome = await runModelTurn({
        model: state.model,
        system,
        history: this.#run.threads.history(this.#run.threadId, state.agent.name),
        prompt: start.prompt,
        tools: synthesis ? {} : tools,
        maxSteps: synthesis ? 1 : state.agent.maxIterations,
        signal: this.#abort.signal,
        headers: turnHeaders({
          runId: this.#runId,
          agent: state.agent.name,
          role: state.role,
          reason: start.reason,
          turn: state.turns,
          taskId: start.task?.id ?? null,
        }),
      });
    } catch (caught) {
      error = caught;
    }
    try {
      await this.#close(start, outcome, error);
    } catch (caught) {
      this.#fail(state.agent.name, caught);
    }
  }

  /**
   * An agent's system prompt and tools, made once a run: its team tools (bound to it, and
   * telling the run whom it messaged this turn), with its own tools taking their names' places.
   */
  #equipment(state: AgentState): { tools: ToolSet; system: string } {
    let made = this.#equipped.get(state);
    if (!made) {
      const context = {
        store: this.#run.store,
        team: this.#run.settings.name,
        onMessageSent: (sent: { to: readonly string[] }) => {
          for (const reader of sent.to) state.answered.add(reader);
        },
      };
      made = {
        tools: {
          ...teamToolsFor(createTeamTools(context, state.agent.name), state.role),
          ...state.agent.tools,
        },
        system: state.role === 'lead' ? leadSystem(this.#picture) : memberSystem(this.#picture, state.agent),
      };
      this.#equipped.set(state, made);
    }
    return made;
  }

  async #close(start: TurnStart, outcome: ModelTurnOutcome | undefined, error: unknown): Promise<void> {
    const { state } = start;
    const failed = error !== undefined && !(this.#abort.signal.aborted && outcome === undefined);
    const usage = outcome ? turnUsage(outcome.usage, state.price) : undefined;
    const outOfTurns = state.role === 'member' && state.countedTurns >= this.#run.settings.maxTurnsPerMember;
    const status = failed ? 'failed' : outOfTurns ? 'stopped' : 'idle';
    const end = {
      start,
      outcome,
      usage,
      status,
      error: failed ? describe(error) : null,
      answered: state.answered,
    } as const;
    await this.#transact((rules) => endTurn(rules, end));
    if (usage) state.usage = addUsage(state.usage, usage);
    if (outcome) {
      state.lastOutput = outcome.text;
      this.#run.threads.remember(this.#run.threadId, state.agent.name, outcome.messages);
    }
    state.status = status;
    state.taskId = null;
    if (state.role === 'lead') {
      this.#leadTurn = null;
      if (start.reason === 'start') this.#startOutput = outcome?.text ?? '';
    }
    if (failed && (state.role === 'lead' || !this.#run.settings.skipFailedMembers))
      this.#fail(state.agent.name, error);
  }

  #fail(agent: string | undefined, error: unknown): void {
    this.#failure ??= { agent, error };
    this.#abort.abort();
  }

  /** The final answer, the run's last event and the result. */
  async #finish(reason: StopReason): Promise<TeamRunResult> {
    const { settings } = this.#run;
    let output = reason === 'no-tasks' ? (this.#startOutput ?? '') : '';
    if (!this.#stopping && reason !== 'no-tasks') {
      if (settings.synthesize) {
        await this.#launchLead('synthesis');
        await Promise.all(this.#running);
        output = this.#lead.lastOutput;
      } else {
        output = tasksAsOutput(await this.#transact(({ board }) => board.listTasks()));
      }
    }
    const failure = this.#failure;
    const stopReason: StopReason = failure ? 'failed' : this.#abort.signal.aborted ? 'aborted' : reason;
    const memberTurns = this.#members.reduce((sum, state) => sum + state.turns, 0);
    const tasks = await this.#transact(({ board, emit }) => {
      // Nothing is left in progress with nobody on it; assignments stay for a resume.
      if (stopReason === 'aborted' || stopReason === 'failed') board.requeueInProgress(settings.lead.name);
      const error = failure ? `${failure.agent ?? 'store'}: ${describe(failure.error)}` : null;
      const data = { stopReason, tasks: board.counts(), leadTurns: this.#lead.turns, memberTurns, error };
      emit({ type: 'team:complete', data });
      return board.listTasks();
    });
    const everyone = [this.#lead, ...this.#members];
    const result: TeamRunResult = {
      output,
      agentResults: Object.fromEntries(everyone.map((state) => [state.agent.name, agentResult(state)])),
      teamResult: {
        tasks,
        members: everyone.map(memberSummary),
        stopReason,
        leadTurns: this.#lead.turns,
        memberTurns,
      },
      usage: {
        total: everyone.reduce((sum, state) => addUsage(sum, state.usage), NO_USAGE),
        byAgent: Object.fromEntries(everyone.map((state) => [state.agent.name, state.usage])),
      },
      runId: this.#runId,
    };
    if (failure && failure.agent === undefined) throw failure.error;
    if (failure) {
      throw new TeamError('agent-failed', `The agent ${failure.agent} failed: ${describe(failure.error)}`, {
        cause: failure.error,
        details: { agent: failure.agent, result },
      });
    }
    return result;
  }
}
