import type { Agent } from '../agent/agent.js';
import { joinedAgent } from '../agent/team-formation.js';
import { TeamError } from '../errors/team-error.js';
import type { StopReason, TeamEvent, TeamEventDraft } from '../events/team-event-map.js';
import { startedView } from '../fold/apply-event.js';
import type { TeamRunResult } from '../fold/run-result.js';
import type { RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { OutageWatch, type StoreOutage } from '../store/outage-watch.js';
import type { TeamRules, TransactOptions } from '../store/team-store.js';
import type { TurnExecutor } from '../turn/executor.js';
import { endTurn } from '../turn/turn-end.js';
import { describeError, type TurnOutcome } from '../turn/turn-outcome.js';
import { applyAction } from './apply-action.js';
import { departIn, departureAfter } from './departure.js';
import { governTurnEnd } from './govern-turn-end.js';
import { InputQueue } from './input-queue.js';
import { LiveRelay } from './live-relay.js';
import type { LoopConfig, LoopInput } from './loop-config.js';
import { openRun } from './open-run.js';
import { finishRun, type Stopping } from './run-end.js';
import { RunEvents } from './run-events.js';
import { RunFold } from './run-fold.js';
import { type Decision, takeSnapshot } from './schedule.js';
import { startTurn } from './start-turn.js';
import { type Action, type StepSnapshot, step } from './step.js';
import { statusAfter } from './turn-status.js';

/**
 * One run's loop: the only code that changes the run's state, and only by folding the run's
 * committed events (`RunFold`: after its own commits and whenever the store tells of others',
 * so a control committed by any process is folded like its own). What to do next is
 * the pure `step` of that state and a board snapshot; the loop carries its actions out: the
 * commits in the transaction that took the snapshot, then the turns it starts and the turns
 * it cuts. Inputs (commits, turn outcomes, the time it waited for) come through one queue,
 * each handled fully before the next, and turns only post their outcome, so no decision
 * depends on when a promise settles.
 */
export class RunLoop {
  readonly events = new RunEvents(async (seq) =>
    (await this.#config.store.readEvents(this.#runId)).filter((event) => event.seq <= seq),
  );
  readonly #config: LoopConfig;
  readonly #fold: RunFold;
  readonly #inputs = new InputQueue<LoopInput>();
  readonly #running = new Map<string, { readonly turn: TurnDescriptor; readonly stop: AbortController }>();
  /** What each failed turn threw, for the error the run's caller gets: it decides nothing. */
  readonly #causes = new Map<string, unknown>();
  readonly #executor: TurnExecutor;
  /** Live-only events: to the run's readers and listeners, never to the log. */
  readonly #relay = new LiveRelay(
    () => this.#state,
    (event) => [this.events.live(event), this.#config.emitter.emit(event)],
  );
  /** Members that joined during the run, as defined (given to `join`, or made from their joins). */
  readonly #definitions = new Map<string, Agent>();
  /** How long the run waits for a store it cannot reach, and whom that is told. */
  readonly #outage: OutageWatch;
  /** The end of an outage the run waited through, logged with its next commit. */
  #outageOver: TeamEventDraft | undefined;
  #runId = '';
  /** A stop this process could not commit (the store failed under it): the run ends here all the same. */
  #localStop: Stopping = null;
  #cancelTimer: (() => void) | undefined;
  #timerAt: number | undefined;
  /**
   * The seq folded when the last step looked: every commit up to it was in the store before
   * that step's transaction began, so that step saw what it changed.
   */
  #stepSaw = 0;

  constructor(config: LoopConfig) {
    this.#config = config;
    this.#fold = new RunFold({
      read: (afterSeq) => config.store.readEvents(this.#runId, { afterSeq }),
      relay: this.#relay,
      folded: (event, live) => {
        this.#executor.notice?.(event);
        this.events.push(event);
        if (live) config.emitter.emit(event);
      },
    });
    this.#executor = config.executor(
      // Once the run's budget is reached, running turns end after their current step.
      () => this.#state.budgetReached !== null,
      {
        emit: (draft) => this.#relay.emit(draft),
        // Live text is for a reader of run.events() that asked for it, or a listener of it.
        watching: () => this.events.deltasRead() || config.emitter.listens('team:text-delta'),
      },
    );
    const waitMs = config.settings.storeOutageMs;
    const said = (outage: StoreOutage, ended: number | null): TeamEventDraft => ({
      type: 'team:store-outage',
      data: {
        began: new Date(outage.began).toISOString(),
        error: outage.error,
        waitMs,
        ended: ended === null ? null : new Date(ended).toISOString(),
      },
    });
    this.#outage = new OutageWatch(
      waitMs,
      {
        // Said live: the log is out of reach. Its end is logged (and folded) as soon as it can be.
        began: (outage) => this.#relay.now(said(outage, null)),
        ended: (outage, at) => {
          this.#outageOver = said(outage, at);
          this.post({ kind: 'tick' });
        },
        expired: (error) => this.post({ kind: 'store-unavailable', error }),
      },
      ' The run stopped there with nothing lost: once the store answers, resume it (agent-teams resume, or run with fresh: false).',
    );
  }

  get runId(): string {
    return this.#runId;
  }

  get #state(): RunState {
    return this.#fold.state;
  }

  /** Starts or resumes the run in the store; after this, `drive` runs it. */
  async open(): Promise<void> {
    const { store, settings, input, fresh } = this.#config;
    const opened = await openRun(store, settings, input, fresh);
    this.#runId = opened.runId;
    this.#fold.opened(await store.readEvents(this.#runId));
  }

  /** Input from outside the loop: a commit elsewhere, a stop that could not be committed. */
  post(input: LoopInput): void {
    if (input.kind === 'commits') this.#relay.announced(); // live events wait for its catch-up
    this.#inputs.push(input);
  }

  /** Makes this process able to run turns of a member that joins (its model resolved now: a missing key fails first). */
  join(agent: Agent): void {
    this.#executor.join?.(agent);
    this.#definitions.set(agent.name, agent);
  }

  /**
   * A member's definition (its budget, whether it plans first): one of the team's, one added
   * here, or one that joined as its join recorded it (a catalog entry keeps its limits).
   */
  #definitionOf(name: string): Agent | undefined {
    const known = this.#definitions.get(name) ?? this.#config.settings.members.find((m) => m.name === name);
    if (known) return known;
    const joined = this.#state.agents.get(name)?.joined;
    if (!joined) return undefined;
    try {
      const made = joinedAgent(this.#config.settings.formation, joined);
      this.#definitions.set(name, made);
      return made;
    } catch {
      return undefined; // a join this process cannot make an agent of: its turns say why
    }
  }

  /**
   * Settles once the run's fold satisfies `until` (checked now and after every event it
   * folds); rejects with `run-ended` if the run ends first.
   */
  until(until: (state: RunState) => boolean): Promise<void> {
    return this.#fold.until(until);
  }

  /**
   * Runs the run to its end; the result is built from the fold, so it covers a resumed run
   * whole. Every store call of the run, its turns' too, waits out an outage of the store as
   * the run's watch says (`storeOutageMs`).
   */
  drive(): Promise<TeamRunResult> {
    const { store } = this.#config;
    // Only a store that can lose its connection takes a watch (it costs every other one time).
    return store.withOutageWatch ? store.withOutageWatch(this.#outage, () => this.#drive()) : this.#drive();
  }

  async #drive(): Promise<TeamRunResult> {
    const { store, settings } = this.#config;
    const unsubscribe = store.subscribe(settings.name, (events) => {
      let lastSeq: number | undefined;
      for (const event of events) {
        if (event.runId !== this.#runId) continue;
        this.#fold.heard(event);
        lastSeq = Math.max(lastSeq ?? 0, event.seq);
      }
      this.post(lastSeq === undefined ? { kind: 'commits' } : { kind: 'commits', lastSeq });
    });
    try {
      const reason = await this.#loop();
      return await this.#finish(reason);
    } finally {
      this.#cancelTimer?.();
      unsubscribe();
      this.#fold.close(
        new TeamError('run-ended', `The run ${this.#runId} has ended.`, { details: { runId: this.#runId } }),
      );
      this.events.close();
      // The run is over: its calls no longer wait for the store.
      this.#outage.close();
      // After its end, or a failure that left it unfinished: another start or resume may take it.
      await store.leaveRun(settings.name, this.#runId).catch(() => undefined);
    }
  }

  async #loop(): Promise<StopReason> {
    // What was committed since the run opened (an abort before it began) comes first.
    await this.#fold.catchUp().catch((error: unknown) => this.#stopHere('failed', error));
    let act = true;
    for (;;) {
      try {
        // What arrived meanwhile is handled before anything starts.
        for (let input = this.#inputs.poll(); input; input = this.#inputs.poll()) {
          act = this.#news(input) || act;
          await this.#handle(input);
        }
        if (act) {
          const end = await this.#act();
          if (end) return end;
        }
        const input = await this.#inputs.take();
        act = this.#news(input);
        await this.#handle(input);
      } catch (error) {
        // The store failed under the loop: stop the turns, then end the run as failed.
        act = true;
        this.#stopHere('failed', error);
      }
    }
  }

  /**
   * Whether `input` may change what the next step decides. A commit whose events a step has
   * seen already (the loop's own, folded before its next step) does not: the step would only
   * read the same state again. Every other input does, as does a commit of no run event.
   */
  #news(input: LoopInput): boolean {
    return input.kind !== 'commits' || input.lastSeq === undefined || input.lastSeq > this.#stepSaw;
  }

  /** Carries out the run's next steps until it must wait; answers the stop reason once the run is to end. */
  async #act(): Promise<StopReason | undefined> {
    for (;;) {
      if (this.#localStop) return this.#running.size === 0 ? this.#localStop.reason : undefined;
      const before = this.#state.seq;
      const { actions, started } = await this.#commitStep();
      for (const action of actions) if (action.kind === 'cut') this.#cut(action.agent);
      if (started.length > 0) {
        for (const turn of started) this.#launch(turn);
        continue;
      }
      const complete = actions.find((action) => action.kind === 'complete');
      if (complete) return complete.stopReason;
      const wait = actions.find((action) => action.kind === 'wait');
      if (!wait) {
        // Commits only: look again, on their events. A batch that committed nothing was decided
        // on a fold behind the store (another process answered the request it forwards, say):
        // the log is read first, or the same batch would be decided again, and again.
        if (this.#state.seq === before) await this.#behindStore();
        continue;
      }
      this.#arm(wait.until);
      // Waiting with no turn of ours running and nothing to wait for would wait for ever: a broken log.
      if (wait.until === undefined && this.#running.size === 0)
        throw new Error(`The run ${this.#runId} waits for a turn that no process runs`);
      return undefined;
    }
  }

  /** Folds the log after a batch of the step's that committed nothing; throws when the log holds nothing new either. */
  async #behindStore(): Promise<void> {
    const before = this.#state.seq;
    await this.#fold.catchUp();
    if (this.#state.seq === before) {
      throw new Error(
        `The run ${this.#runId} decided a step that changes nothing, on a fold as current as its log`,
      );
    }
  }

  /**
   * Asks `step` what to do in a transaction, and commits there what it says; answers the turns
   * it started. A batch that only starts a member's turn is followed, in the same transaction,
   * by every further member turn the schedule allows: each decided on the transaction's board
   * and on the state as it will be once the starts before it are folded.
   */
  #commitStep(): Promise<{ actions: Action[]; started: TurnDescriptor[] }> {
    const { settings, budget, threadId } = this.#config;
    const context = { settings, budget, now: settings.clock.now() };
    const run = { threadId, countsCost: budget?.maxCostUsd !== undefined, lead: settings.lead.name };
    return this.#commitStart(
      (rules) => {
        this.#stepSaw = this.#state.seq;
        const stepOn = (state: RunState) => {
          const snapshot: StepSnapshot = {
            ...takeSnapshot(rules, state, settings),
            listTasks: () => rules.board.listTasks(),
          };
          return step(state, snapshot, context);
        };
        const actions = stepOn(this.#state);
        const started: TurnDescriptor[] = [];
        for (const action of actions) {
          const turn = applyAction(rules, this.#state, action, run);
          if (turn) started.push(turn);
        }
        let view = this.#state;
        let next = memberStart(actions, view);
        while (next) {
          view = startedView(view, started.at(-1) as TurnDescriptor);
          next = memberStart(stepOn(view), view);
          if (next) started.push(startTurn(rules, view, next, run));
        }
        return { actions, started };
      },
      (value) => value.started,
    );
  }

  async #handle(input: LoopInput): Promise<void> {
    if (input.kind === 'abort') this.#stopHere('aborted', input.reason);
    else if (input.kind === 'store-unavailable') this.#stopHere('failed', input.error);
    else if (input.kind === 'turn-ended') await this.#close(input.turn, input.outcome);
    // A commit or a time waited for needs no handling of its own: the next step sees it. A
    // turn's end read the log when it closed the turn: only what was heard since is left.
    await this.#fold.catchUp(input.kind === 'commits' || input.kind === 'turn-ended');
  }

  #launch(turn: TurnDescriptor): void {
    const stop = new AbortController();
    this.#running.set(turn.agent, { turn, stop });
    const ended = (outcome: TurnOutcome) => this.post({ kind: 'turn-ended', turn, outcome });
    this.#executor
      .execute(turn, stop.signal)
      .then(ended, (error: unknown) =>
        ended({ kind: 'failed', error: describeError(error), delivered: [], cause: error }),
      );
  }

  /** Stops a running turn (it ends as `aborted`); a turn already stopped is left alone. */
  #cut(agent: string): void {
    const running = this.#running.get(agent);
    if (running && !running.stop.signal.aborted)
      running.stop.abort(new TeamError('aborted', `${agent}'s turn was stopped.`));
  }

  /** A stop of this process alone (the store could not take it): every turn is cut. */
  #stopHere(reason: 'aborted' | 'failed', error: unknown): void {
    this.#localStop ??= { reason, error };
    for (const agent of this.#running.keys()) this.#cut(agent);
  }

  /** Wakes the loop at `until` (its clock's time), once; a new wait replaces the last. */
  #arm(until: number | undefined): void {
    if (until === this.#timerAt) return;
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#timerAt = until;
    if (until === undefined) return;
    const { clock } = this.#config.settings;
    this.#cancelTimer = clock.setTimer(Math.max(0, until - clock.now()), () => {
      this.#timerAt = undefined;
      this.post({ kind: 'tick' });
    });
  }

  /** Commits a turn's end: the fallback, its usage, the agent's status after it, a departure due. */
  async #close(turn: TurnDescriptor, outcome: TurnOutcome): Promise<void> {
    this.#running.delete(turn.agent);
    await this.#fold.catchUp(); // whom it messaged in the turn is in the log by now
    const agent = this.#state.agents.get(turn.agent);
    if (!agent) return;
    const { settings } = this.#config;
    const definition = this.#definitionOf(turn.agent);
    const { status, overBudget } = statusAfter(agent, turn, outcome, settings, definition);
    if (outcome.kind === 'failed') this.#causes.set(turn.agent, outcome.cause);
    const answered = new Set(agent.answered);
    const governed = governTurnEnd(this.#state, turn, outcome, definition);
    const departure = departureAfter(this.#state, turn, outcome);
    const { idleNotified } = agent;
    await this.#transact((rules) => {
      if (governed.plan) rules.requests.open(turn.agent, governed.plan, turn.turn, settings.governance);
      const waiting = governed.waiting;
      endTurn(rules, {
        turn,
        outcome,
        status,
        answered,
        waiting,
        idleNotified,
        departing: departure !== null,
      });
      if (overBudget) rules.emit({ type: 'team:budget-reached', data: { agent: turn.agent, ...overBudget } });
      if (departure) departIn(rules, turn.agent, departure, outcome);
    });
  }

  /** Commits a step through the executor, which may hand its turns over in the same transaction. */
  async #commitStart<T>(
    fn: (rules: TeamRules) => T,
    turnsOf: (value: T) => readonly TurnDescriptor[],
  ): Promise<T> {
    if (!this.#executor.commitStart) return this.#transact(fn);
    const over = this.#outageOver;
    const own = ownCommit();
    const value = await this.#executor.commitStart(
      this.#config.settings.name,
      withOver(over, fn),
      turnsOf,
      own.options,
    );
    if (this.#outageOver === over) this.#outageOver = undefined;
    await this.#fold.catchUp(false, own.events());
    return value;
  }

  async #transact<T>(fn: (rules: TeamRules) => T): Promise<T> {
    const over = this.#outageOver;
    const own = ownCommit();
    const value = await this.#config.store.transact(
      this.#config.settings.name,
      withOver(over, fn),
      own.options,
    );
    if (this.#outageOver === over) this.#outageOver = undefined;
    await this.#fold.catchUp(false, own.events());
    return value;
  }

  /** The final answer, the run's last event and the result. */
  #finish(reason: StopReason): Promise<TeamRunResult> {
    const transact = <T>(fn: (rules: TeamRules) => T) => this.#transact(fn);
    const failure = this.#state.failure;
    const stopping: Stopping =
      reason === 'aborted'
        ? { reason, error: this.#localStop?.error ?? this.#state.abort?.reason }
        : reason === 'failed'
          ? {
              reason,
              error:
                this.#localStop?.error ??
                (failure ? (this.#causes.get(failure.agent) ?? new Error(failure.error)) : undefined),
            }
          : null;
    return finishRun(this.#state, this.#config.settings, stopping, reason, transact);
  }
}

type TurnDecision = Extract<Decision, { kind: 'turn' }>;

/** The member turn a batch of the step's only starts, if that is all it does. */
function memberStart(actions: readonly Action[], state: RunState): TurnDecision | undefined {
  const [action] = actions;
  if (actions.length !== 1 || action?.kind !== 'turn') return undefined;
  return state.agents.get(action.decision.agent)?.role === 'member' ? action.decision : undefined;
}

/**
 * Where a commit of the loop's own hands back its events (a store that does not tell leaves
 * `events()` undefined: the log is read instead).
 */
function ownCommit(): { options: TransactOptions; events: () => readonly TeamEvent[] | undefined } {
  let events: readonly TeamEvent[] | undefined;
  return {
    options: {
      committed: (committed) => {
        events = committed;
      },
    },
    events: () => events,
  };
}

/** `fn`, logging first the end of an outage the run waited through (when there is one to log). */
function withOver<T>(over: TeamEventDraft | undefined, fn: (rules: TeamRules) => T): (rules: TeamRules) => T {
  if (!over) return fn;
  return (rules) => {
    rules.emit(over);
    return fn(rules);
  };
}
