import type { Agent } from '../agent/agent.js';
import { USER } from '../agent/participants.js';
import { checkKnownKeys } from '../errors/check-options.js';
import { TeamError } from '../errors/index.js';
import type { AgentRunState, RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { notifyIdle } from '../mailbox/notices.js';
import type { TeamRules } from '../store/team-store.js';
import type { TurnOutcome } from '../turn/turn-outcome.js';
import { profileOf } from './roster.js';

/** What the lifecycle needs of the run's loop (the one writer): it runs inside the loop. */
export interface LoopControl {
  readonly state: RunState;
  transact<T>(fn: (rules: TeamRules) => T): Promise<T>;
  /** Whether a turn of `agent` runs now. */
  running(agent: string): boolean;
  /** Makes the executor able to run turns of a member that joined. */
  equip(agent: Agent): void;
}

/** The control a change gets once the run is over: it can commit nothing. */
function endedControl(state: RunState): LoopControl {
  const ended = () => {
    throw new TeamError(
      'invalid-input',
      `The run ${state.runId} has ended: it takes no shutdown or roster change.`,
    );
  };
  return { state, transact: async () => ended(), running: () => false, equip: ended };
}

export interface ShutdownOptions {
  /** Stop it at once (its turn is aborted) instead of asking. Default `false`. */
  force?: boolean;
  /** Why, for the member and the log. */
  reason?: string;
}

/** What settles after the commit: the end of a turn that had to stop first. */
export type Later = { readonly done: Promise<void> } | undefined;

interface Departure {
  readonly force: boolean;
  readonly reason: string | null;
  readonly removed: boolean;
  readonly settle: () => void;
}

/**
 * Shutdown and roster changes during a run, applied by the loop (inputs on its queue):
 * - graceful `shutdown`: a `shutdown_request` message wakes the member; it answers in that
 *   turn with `respond_to_shutdown` (approve, or reject with a reason) and, when it does not
 *   reject, shuts down as the turn ends: a turn is never cut for it, and it cannot hang;
 * - `force` (and `removeMember`): its running turn is aborted, then it departs;
 * - a departed member's tasks go back to the list, its unread messages stay in its inbox
 *   (the archive), and the lead gets an `idle_notification` (shut down).
 */
export class Lifecycle {
  #control: LoopControl;

  constructor(
    state: RunState,
    transact: LoopControl['transact'],
    running: LoopControl['running'],
    equip: LoopControl['equip'],
  ) {
    this.#control = { state, transact, running, equip };
  }

  #ended = false;

  /** The run is over: a change asked for now is refused, never left waiting. */
  end(): void {
    this.#ended = true;
    this.#control = endedControl(this.#control.state);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Members to depart once their aborted turn is closed. */
  readonly #waiting = new Map<string, Departure>();
  /** Each running turn's own stop, besides the run's. */
  readonly #stops = new Map<string, AbortController>();

  /** The signal a turn of `agent` runs with: the run's, or its own forced shutdown. */
  signalOf(agent: string, run: AbortSignal): AbortSignal {
    const own = new AbortController();
    this.#stops.set(agent, own);
    return AbortSignal.any([run, own.signal]);
  }

  /**
   * Each change answers once it is committed (the loop awaits that); when the member's turn
   * must end first, it answers with what settles once it has (the loop does not wait for it).
   */
  async shutdown(member: string, options: ShutdownOptions): Promise<Later> {
    const control = this.#control;
    if (typeof options !== 'object' || options === null) {
      throw new TeamError('invalid-input', 'shutdown options must be an object: { force?, reason? }.');
    }
    checkKnownKeys('shutdown', options, ['force', 'reason']);
    if (options.force !== undefined && typeof options.force !== 'boolean') {
      throw new TeamError('invalid-input', 'force must be true or false.');
    }
    if (options.reason !== undefined && typeof options.reason !== 'string') {
      throw new TeamError('invalid-input', 'reason must be a string.');
    }
    const agent = activeMember(control.state, member);
    const reason = options.reason?.trim() || null;
    const force = options.force === true;
    // A member with no turn left to answer in (out of turns, failed) is shut down at once.
    if (force || agent.status === 'stopped' || agent.status === 'failed') {
      return this.#depart(control, member, { force: true, reason, removed: false });
    }
    if (agent.shutdownRequest) return undefined; // asked already: one request is enough
    await control.transact(({ mailbox, emit }) => {
      const text = `The person running the team asks you to shut down${reason ? `: ${reason}` : '.'} Finish your step, then approve or reject with respond_to_shutdown (not rejecting approves).`;
      const sent = mailbox.send(USER, member, text, { kind: 'shutdown_request' });
      emit({ type: 'team:shutdown-requested', data: { member, force: false, reason, messageId: sent.id } });
    });
    return undefined;
  }

  async remove(member: string): Promise<Later> {
    activeMember(this.#control.state, member);
    return this.#depart(this.#control, member, { force: true, reason: null, removed: true });
  }

  async add(agent: Agent): Promise<Later> {
    const control = this.#control;
    if (control.state.agents.has(agent.name)) {
      throw new TeamError('invalid-input', `The run has an agent ${agent.name} already.`, {
        details: { agent: agent.name },
      });
    }
    // Its model is resolved first: a missing key is an error before the roster changes.
    control.equip(agent);
    await control.transact(({ roster }) => roster.join(agent.name, profileOf(agent)));
    return undefined;
  }

  /** Whether the member departs as this turn ends (then its turn's end tells the lead nothing). */
  departs(state: RunState, turn: TurnDescriptor, outcome: TurnOutcome): boolean {
    return this.#waiting.has(turn.agent) || answered(state, turn, outcome);
  }

  /**
   * In the commit of the turn's end, after it: the member departs if it was waiting to, or
   * if its turn was given the shutdown request and it did not reject it. Answers what to
   * call once that commit is done.
   */
  afterTurn(rules: TeamRules, state: RunState, turn: TurnDescriptor, outcome: TurnOutcome): () => void {
    this.#stops.delete(turn.agent);
    const waiting = this.#waiting.get(turn.agent);
    if (waiting) {
      departIn(rules, turn.agent, waiting, outcome);
      return () => {
        this.#waiting.delete(turn.agent);
        waiting.settle();
      };
    }
    if (answered(state, turn, outcome)) {
      const reason = state.agents.get(turn.agent)?.shutdownRequest?.reason ?? null;
      departIn(rules, turn.agent, { force: false, reason, removed: false }, outcome);
    }
    return () => {};
  }

  async #depart(control: LoopControl, member: string, how: Omit<Departure, 'settle'>): Promise<Later> {
    if (!control.running(member)) {
      await control.transact((rules) => {
        rules.emit({
          type: 'team:shutdown-requested',
          data: { member, force: how.force, reason: how.reason, messageId: null },
        });
        departIn(rules, member, how, undefined);
      });
      return undefined;
    }
    if (this.#waiting.has(member))
      throw new TeamError('member-shutdown', `${member} is shutting down already.`);
    await control.transact(({ emit }) =>
      emit({
        type: 'team:shutdown-requested',
        data: { member, force: true, reason: how.reason, messageId: null },
      }),
    );
    const done = new Promise<void>((settle) => this.#waiting.set(member, { ...how, settle }));
    this.#stops.get(member)?.abort(new TeamError('aborted', `${member} was shut down.`));
    return { done };
  }
}

/** The member's turn was given its shutdown request, and it did not reject it. */
function answered(state: RunState, turn: TurnDescriptor, outcome: TurnOutcome): boolean {
  const request = state.agents.get(turn.agent)?.shutdownRequest;
  if (!request?.messageId || outcome.kind === 'aborted') return false;
  return turn.messageIds.includes(request.messageId) || outcome.delivered.includes(request.messageId);
}

function departIn(
  rules: TeamRules,
  member: string,
  how: Omit<Departure, 'settle'>,
  outcome: TurnOutcome | undefined,
): void {
  const output = outcome?.kind === 'done' ? outcome.text : '';
  const { force, reason, removed } = how;
  // Told before it departs: a departed member sends nothing.
  notifyIdle(rules.mailbox, member, 'shutdown', { output, task: undefined });
  rules.roster.depart(member, { force, reason, removed });
}

function activeMember(state: RunState, member: unknown): AgentRunState {
  const agent = typeof member === 'string' ? state.agents.get(member) : undefined;
  if (agent?.role !== 'member') {
    const members = [...state.agents.values()]
      .filter((each) => each.role === 'member')
      .map((each) => each.name);
    throw new TeamError(
      'not-a-member',
      `${JSON.stringify(member)} is not a member of the run; its members are ${members.join(', ')}.`,
      {
        details: { agent: member },
      },
    );
  }
  if (agent.status === 'shutdown') {
    throw new TeamError('member-shutdown', `${agent.name} has shut down or left the team already.`, {
      details: { agent: agent.name },
    });
  }
  return agent;
}
