import type { Agent } from '../agent/agent.js';
import { type BudgetReached, budgetReached } from '../agent/budget.js';
import { isTeamError } from '../errors/index.js';
import type { StopReason } from '../events/team-event-map.js';
import { applyEvent } from '../fold/apply-event.js';
import type { TeamRunResult } from '../fold/run-result.js';
import { emptyRunState, type RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { planSynthesis, type SynthesisPlan } from '../prompt/synthesis-plan.js';
import type { TeamRules } from '../store/team-store.js';
import type { TurnExecutor } from '../turn/executor.js';
import { endTurn } from '../turn/turn-end.js';
import { describeError, type TurnOutcome } from '../turn/turn-outcome.js';
import { governTurnEnd } from './govern-turn-end.js';
import { InputQueue } from './input-queue.js';
import { LiveRelay } from './live-relay.js';
import type { LoopConfig, LoopInput } from './loop-config.js';
import { openRun } from './open-run.js';
import { expireDue, forwardStranded, RequestClock } from './request-clock.js';
import { finishRun, type Stopping } from './run-end.js';
import { RunEvents } from './run-events.js';
import { decide, takeSnapshot } from './schedule.js';
import { Lifecycle } from './shutdown.js';
import { startSynthesis, startTurn } from './start-turn.js';
import { statusAfter } from './turn-status.js';

/**
 * One run's loop: the only code that changes the run's state. It folds the run's committed
 * events (read from the log after its own commits and whenever the store tells of others'),
 * takes its inputs (commits, turn outcomes, an abort) from one queue and handles each fully
 * before the next, and asks the pure `decide` what to start. Turns run on the executor and
 * only post their outcome, so no decision depends on when a promise settles.
 */
export class RunLoop {
  readonly events = new RunEvents();
  readonly #config: LoopConfig;
  readonly #state: RunState = emptyRunState();
  readonly #inputs = new InputQueue<LoopInput>();
  readonly #running = new Map<string, TurnDescriptor>();
  readonly #causes = new Map<string, unknown>();
  readonly #abort = new AbortController();
  readonly #lifecycle: Lifecycle;
  readonly #executor: TurnExecutor;
  /** Live-only events: to the run's readers and listeners, never to the log. */
  readonly #relay = new LiveRelay(
    () => this.#state,
    (event) => [this.events.live(event), this.#config.emitter.emit(event)],
  );
  #runId = '';
  /** Events folded from here on are emitted live; the ones before belong to a resumed run's past. */
  #live = false;
  #stopping: Stopping = null;
  /** The run's end, decided before its synthesis turn ran. */
  #ending: StopReason | null = null;
  /** The parts of a synthesis over more results than fit in one prompt, once it began. */
  #synthesis: SynthesisPlan | null = null;
  /** The budget bound the run reached: no turn starts but its synthesis. */
  #overBudget: BudgetReached | null = null;
  #openedAt = 0;
  #deadline: NodeJS.Timeout | undefined;
  readonly #requestClock = new RequestClock(() => this.post({ kind: 'requests-due' }));

  constructor(config: LoopConfig) {
    this.#config = config;
    this.#executor = config.executor(
      () => this.#state,
      () => this.#overBudget !== null,
      (draft) => this.#relay.emit(draft),
    );
    const running = (agent: string) => this.#running.has(agent);
    const equip = (agent: Agent) => this.#executor.join?.(agent);
    this.#lifecycle = new Lifecycle(this.#state, (fn) => this.#transact(fn), running, equip);
  }

  get runId(): string {
    return this.#runId;
  }

  /** Starts or resumes the run in the store; after this, `drive` runs it. */
  async open(): Promise<void> {
    const { store, settings, input, fresh } = this.#config;
    const opened = await openRun(store, settings, input, fresh);
    this.#runId = opened.runId;
    this.#openedAt = Date.now();
    const events = await store.readEvents(this.#runId);
    const first = events.findLast((event) => event.type === 'team:start' || event.type === 'team:resumed');
    for (const event of events) {
      if (event === first) this.#live = true;
      this.#fold(event);
    }
  }

  /** Input from outside the loop: a commit elsewhere, an abort. */
  post(input: LoopInput): void {
    if (input.kind === 'commits') this.#relay.announced(); // live events wait for its catch-up
    if (input.kind === 'lifecycle' && this.#lifecycle.ended) void input.act(this.#lifecycle);
    else this.#inputs.push(input);
  }

  /** Runs the run to its end; the result is built from the fold, so it covers a resumed run whole. */
  async drive(): Promise<TeamRunResult> {
    const { store, settings } = this.#config;
    const unsubscribe = store.subscribe(settings.name, () => this.post({ kind: 'commits' }));
    const duration = this.#config.budget?.maxDurationMs;
    if (duration !== undefined) this.#deadline = setTimeout(() => this.post({ kind: 'deadline' }), duration);
    try {
      const reason = await this.#loop();
      return await this.#finish(reason);
    } finally {
      clearTimeout(this.#deadline);
      this.#requestClock.clear();
      unsubscribe();
      this.#lifecycle.end(); // a change asked for too late is refused, never left waiting
      for (let input = this.#inputs.poll(); input; input = this.#inputs.poll())
        if (input.kind === 'lifecycle') this.post(input);
      this.events.close();
      // After its end, or a failure that left it unfinished: another start or resume may take it.
      await store.leaveRun(settings.name, this.#runId).catch(() => undefined);
    }
  }

  async #loop(): Promise<StopReason> {
    for (;;) {
      try {
        // What arrived meanwhile is handled before anything starts.
        for (let input = this.#inputs.poll(); input; input = this.#inputs.poll()) await this.#handle(input);
        const end = await this.#act();
        if (end) return end;
        await this.#handle(await this.#inputs.take());
      } catch (error) {
        // The store failed under the loop: stop the turns, then end the run as failed.
        this.#stop('failed', error);
      }
    }
  }

  /** Starts every turn that can start; answers the stop reason once the run is to end. */
  async #act(): Promise<StopReason | undefined> {
    const { settings, threadId } = this.#config;
    for (;;) {
      if (this.#stopping) return this.#running.size === 0 ? this.#stopping.reason : undefined;
      const failure = this.#state.failure;
      if (failure && (failure.agent === settings.lead.name || !settings.skipFailedMembers)) {
        this.#stop('failed', this.#causes.get(failure.agent) ?? new Error(failure.error));
        continue;
      }
      if (this.#ending) {
        if (this.#running.size > 0) return undefined;
        // The synthesis: one turn, or its parts one after another (synthesis-batches.ts), then the end.
        const part = this.#synthesis?.next(this.#state.summaries);
        if (part === undefined) return this.#ending;
        const start = (rules: TeamRules) =>
          startSynthesis(rules, this.#state, settings.lead.name, threadId, part);
        this.#launch(await this.#commitStart(start, (started) => started));
        continue;
      }
      await this.#checkBudget();
      if (this.#overBudget) {
        // Running turns stop after their current step; then the synthesis of what is done.
        if (this.#running.size > 0) return undefined;
        if (!settings.synthesize) return 'budget';
        await this.#synthesize('budget');
        continue;
      }
      const step = await this.#commitStart(
        (rules) => {
          forwardStranded(rules, this.#state, settings.maxLeadTurns);
          const decision = decide(this.#state, takeSnapshot(rules, this.#state, settings), settings);
          return decision.kind === 'turn'
            ? { decision, turn: startTurn(rules, this.#state, decision, threadId) }
            : { decision, turn: undefined };
        },
        (step) => step.turn,
      );
      if (step.turn) {
        this.#launch(step.turn);
        continue;
      }
      if (step.decision.kind === 'wait') {
        // Waiting with no turn of ours running and no request open would wait for ever: a broken log.
        if (!this.#requestClock.arm(this.#state) && this.#running.size === 0)
          throw new Error(`The run ${this.#runId} waits for a turn that no process runs`);
        return undefined;
      }
      const { stopReason } = step.decision as { stopReason: StopReason };
      if (!settings.synthesize || stopReason === 'no-tasks') return stopReason;
      await this.#synthesize(stopReason);
    }
  }

  /** Plans the lead's final turn (or turns); the run ends with `reason` once they are over. */
  async #synthesize(reason: StopReason): Promise<void> {
    this.#ending = reason;
    const plan = ({ board }: TeamRules) =>
      planSynthesis(this.#config.settings, this.#state.input, board.listTasks());
    this.#synthesis = await this.#transact(plan);
  }

  /** Commits the run's reaching its budget, once, when its usage or time says so. */
  async #checkBudget(): Promise<void> {
    if (this.#overBudget) return;
    const reached = budgetReached(this.#config.budget, this.#state.usage, Date.now() - this.#openedAt);
    if (!reached) return;
    this.#overBudget = reached;
    await this.#transact(({ emit }) =>
      emit({ type: 'team:budget-reached', data: { agent: null, ...reached } }),
    );
  }

  async #handle(input: LoopInput): Promise<void> {
    if (input.kind === 'abort') this.#stop('aborted', input.reason);
    // A deadline needs no handling of its own: the next look at the budget sees the time.
    else if (input.kind === 'turn-ended') await this.#close(input.turn, input.outcome);
    else if (input.kind === 'requests-due')
      await this.#transact((r) => expireDue(r, this.#state, Date.now()));
    else if (input.kind === 'lifecycle') await input.act(this.#lifecycle);
    await this.#catchUp();
  }

  #launch(turn: TurnDescriptor): void {
    this.#running.set(turn.agent, turn);
    const ended = (outcome: TurnOutcome) => this.post({ kind: 'turn-ended', turn, outcome });
    this.#executor
      .execute(turn, this.#lifecycle.signalOf(turn.agent, this.#abort.signal))
      .then(ended, (error: unknown) =>
        ended({ kind: 'failed', error: describeError(error), delivered: [], cause: error }),
      );
  }

  /** Commits a turn's end: the fallback, its usage, the agent's status after it. */
  async #close(turn: TurnDescriptor, outcome: TurnOutcome): Promise<void> {
    this.#running.delete(turn.agent);
    await this.#catchUp(); // whom it messaged in the turn is in the log by now
    const agent = this.#state.agents.get(turn.agent);
    if (!agent) return;
    const { status, overBudget } = statusAfter(agent, turn, outcome, this.#config.settings);
    if (outcome.kind === 'failed') this.#causes.set(turn.agent, outcome.cause);
    // A hook that threw fails the run, whoever's turn it was (see governance/hooks.ts).
    if (outcome.kind === 'failed' && isTeamError(outcome.cause, 'hook-failed'))
      this.#stop('failed', outcome.cause);
    const answered = new Set(agent.answered);
    const governed = governTurnEnd(this.#state, turn, outcome, this.#config.settings);
    const departing = this.#lifecycle.departs(this.#state, turn, outcome);
    const settle = await this.#transact((rules) => {
      if (governed.plan) rules.emit(governed.plan);
      const idleNotified = agent.idleNotified;
      endTurn(rules, { turn, outcome, status, answered, waiting: governed.waiting, idleNotified, departing });
      if (overBudget) rules.emit({ type: 'team:budget-reached', data: { agent: turn.agent, ...overBudget } });
      return this.#lifecycle.afterTurn(rules, this.#state, turn, outcome);
    });
    settle();
  }

  #stop(reason: 'aborted' | 'failed', error: unknown): void {
    this.#stopping ??= { reason, error };
    this.#abort.abort(error);
  }

  /** Commits a turn's start through the executor, which may hand the turn over in the same transaction. */
  async #commitStart<T>(
    fn: (rules: TeamRules) => T,
    turnOf: (value: T) => TurnDescriptor | undefined,
  ): Promise<T> {
    if (!this.#executor.commitStart) return this.#transact(fn);
    const value = await this.#executor.commitStart(this.#config.settings.name, fn, turnOf);
    await this.#catchUp();
    return value;
  }

  async #transact<T>(fn: (rules: TeamRules) => T): Promise<T> {
    const value = await this.#config.store.transact(this.#config.settings.name, fn);
    await this.#catchUp();
    return value;
  }

  /** Folds what the run's log holds past the state: its own commits and every other process's. */
  async #catchUp(): Promise<void> {
    const mark = this.#relay.mark();
    const events = await this.#config.store.readEvents(this.#runId, { afterSeq: this.#state.seq });
    for (const event of events) this.#fold(event);
    this.#relay.folded(mark);
  }

  #fold(event: Parameters<typeof applyEvent>[1]): void {
    if (event.seq <= this.#state.seq) return;
    applyEvent(this.#state, event);
    this.#executor.notice?.(event);
    this.events.push(event);
    if (this.#live) this.#config.emitter.emit(event);
  }

  /** The final answer, the run's last event and the result. */
  #finish(reason: StopReason): Promise<TeamRunResult> {
    const transact = <T>(fn: (rules: TeamRules) => T) => this.#transact(fn);
    return finishRun(this.#state, this.#config.settings, this.#stopping, reason, transact);
  }
}
